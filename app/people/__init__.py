"""A person across devices: the devices signed in as one player (each with its own token),
link codes that sign another device in, passkeys, and the player's own rooms ("Your games").

It reaches storage only through `storage.PeopleStore`; app/store never imports it. The token
checks themselves stay in the guard (`app.guard.auth`) and the store's hot reads
(`app.store.tokens`), which now read a device's token."""
