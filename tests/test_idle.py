"""QuietWatch (app/guard/idle.py): a wait for the next frame gives up after a quiet spell, as
`asyncio.timeout` around it would, with one timer per spell instead of one per frame."""

from __future__ import annotations

import asyncio

import pytest

from app.guard.idle import QuietWatch

SPELL = 0.05


async def test_a_frame_in_time_is_answered() -> None:
    quiet = QuietWatch(SPELL)
    assert await quiet.receive(asyncio.sleep(SPELL / 5, "frame")) == "frame"
    quiet.close()


async def test_a_quiet_spell_answers_none_and_the_next_wait_counts_afresh() -> None:
    quiet = QuietWatch(SPELL)
    started = asyncio.get_running_loop().time()
    assert await quiet.receive(asyncio.sleep(10, "late")) is None
    assert SPELL <= asyncio.get_running_loop().time() - started < 10
    assert asyncio.current_task().cancelling() == 0, "the watch's own cancel is taken back"
    assert await quiet.receive(asyncio.sleep(SPELL / 5, "next")) == "next"
    quiet.close()


async def test_steady_frames_keep_a_socket_alive_longer_than_one_spell() -> None:
    quiet = QuietWatch(SPELL)
    for _ in range(12):  # 12 x SPELL/4: three spells' time, never a quiet one
        assert await quiet.receive(asyncio.sleep(SPELL / 4, "ping")) == "ping"
    quiet.close()


async def test_no_seconds_never_gives_up() -> None:
    quiet = QuietWatch(None)
    assert await quiet.receive(asyncio.sleep(SPELL * 2, "slow")) == "slow"
    quiet.close()


async def test_a_cancel_from_outside_goes_on() -> None:
    async def reader() -> None:
        quiet = QuietWatch(SPELL)
        try:
            await quiet.receive(asyncio.sleep(10))
        finally:
            quiet.close()

    task = asyncio.get_running_loop().create_task(reader())
    await asyncio.sleep(SPELL / 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
