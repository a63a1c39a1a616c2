"""map_ordered: answers in the items' order, batches that cost no item but the one that
killed its worker."""

from __future__ import annotations

import os

import pytest

from foldctl.parallel import MAX_BATCH, batch_size, map_ordered

DIES = 13  # the item whose worker dies (as one killed by the kernel would)


def square_or_die(item: int) -> tuple[int, int]:
    if item == DIES:
        os._exit(9)
    return item, os.getpid()


def crashed(item: int) -> tuple[int, int]:
    return item, -1


@pytest.mark.parametrize("batch", [1, 4, 50])
def test_answers_come_back_in_order_one_per_item(batch: int) -> None:
    items = [i for i in range(40) if i != DIES]
    finished: list[int] = []
    found = list(
        map_ordered(
            square_or_die,
            items,
            jobs=2,
            local=lambda item: item % 10 == 0,
            on_done=lambda i, _r: finished.append(i),
            on_crash=crashed,
            batch=batch,
        )
    )
    assert [item for item, _ in found] == items
    assert sorted(finished) == list(range(len(items)))
    here = {pid for item, pid in found if item % 10 == 0}
    assert here == {os.getpid()}  # local items ran in this process
    assert all(pid != os.getpid() for item, pid in found if item % 10)


@pytest.mark.parametrize("batch", [1, 8])
def test_a_dead_worker_costs_only_the_item_that_killed_it(batch: int) -> None:
    """Everything the broken pool held is tried again, one item at a time: its batch
    mates and the other worker's tasks answer; the item that dies alone fails."""
    items = list(range(60))
    found = list(map_ordered(square_or_die, items, jobs=2, on_crash=crashed, batch=batch))
    assert [item for item, _ in found] == items
    assert [item for item, pid in found if pid == -1] == [DIES]


def test_batch_size_leaves_every_worker_several_tasks() -> None:
    assert batch_size(5, 2) == 1
    assert batch_size(2000, 2) == MAX_BATCH
    assert 1 < batch_size(200, 2) < MAX_BATCH
    assert batch_size(200, 2) * 2 * 8 <= 200
