"""Who beat whom: ratings per game, profiles, friends, invitations and series of rematches.

Reaches storage only through its own narrow protocol (`app.social.store.SocialStore`); the
ratings themselves are computed here (`ratings.rate`) and handed to the store, which writes them
in the transaction that ends a game.
"""
