"""Fuzz-suite bookkeeping: a per-input time bound and the count of inputs, crashes and hangs
per component, written to ``fuzz_counts.json`` in pytest's base temporary directory and
printed in the terminal summary.

A *crash* is any exception other than a ``ValueError``/``TypeError`` that the component
documents for invalid input (those are counted as *rejected* and their messages kept), and,
for a victim, an input it answered with a failure (``Prediction.error``). A *hang* is an
input that took longer than the component's time bound (``SIGALRM``, main thread).
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest


class Hang(Exception):
    """Raised in the main thread when an input exceeds its time bound."""


@dataclass
class ComponentCounts:
    """What one component did with its generated inputs."""

    inputs: int = 0
    crashes: int = 0
    hangs: int = 0
    rejected: int = 0
    literals_lost: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def failed(self, kind: str, sample: object, detail: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.failures) < 5:
            self.failures.append(f"{kind}: {detail} on {repr(sample)[:160]}")


class FuzzLedger:
    """Counts per component, shared by the whole session."""

    def __init__(self) -> None:
        self.components: dict[str, ComponentCounts] = {}

    def counts(self, component: str) -> ComponentCounts:
        return self.components.setdefault(component, ComponentCounts())

    def run(
        self,
        component: str,
        sample: object,
        call: Callable[[], Any],
        *,
        seconds: float,
        rejects: Callable[[Exception], bool] = lambda error: False,
    ) -> Any:
        """Run ``call`` under a ``seconds`` bound and count the outcome for ``component``.

        Returns the call's result, or ``None`` when it was rejected, crashed or hung; the
        property checks that follow only look at real results.
        """
        counts = self.counts(component)
        counts.inputs += 1
        start = time.perf_counter()
        try:
            with time_bound(seconds):
                return call()
        except Hang:
            counts.failed("hangs", sample, f"over {seconds:g} s")
        except (ValueError, TypeError) as error:
            if rejects(error):
                counts.rejected += 1
            else:
                counts.failed("crashes", sample, f"{type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - counting crashes is the point
            counts.failed("crashes", sample, f"{type(error).__name__}: {error}")
        finally:
            counts.seconds += time.perf_counter() - start
        return None

    def assert_clean(self, component: str) -> None:
        counts = self.counts(component)
        assert counts.inputs > 0, f"{component}: no input was generated"
        assert counts.crashes == 0 and counts.hangs == 0, (
            f"{component}: {counts.crashes} crashes, {counts.hangs} hangs in {counts.inputs} inputs:\n"
            + "\n".join(counts.failures)
        )


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` (``SIGALRM``)."""

    def expire(signum: int, frame: object) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_LEDGER = FuzzLedger()


@pytest.fixture(scope="session")
def ledger() -> FuzzLedger:
    return _LEDGER


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if not _LEDGER.components:
        return
    rows = {name: asdict(counts) for name, counts in sorted(_LEDGER.components.items())}
    base = Path(str(config._tmp_path_factory.getbasetemp()))  # type: ignore[attr-defined]
    path = base / "fuzz_counts.json"
    path.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    write = terminalreporter.write_line
    terminalreporter.section("fuzz: generated inputs per component")
    keys = ("inputs", "crashes", "hangs", "rejected", "literals_lost")
    write(f"{'component':<36}" + "".join(f"{key:>14}" for key in keys) + f"{'seconds':>9}")
    for name, row in rows.items():
        write(f"{name:<36}" + "".join(f"{row[key]:>14}" for key in keys) + f"{row['seconds']:>9.1f}")
    write(f"{'total':<36}" + "".join(f"{sum(row[key] for row in rows.values()):>14}" for key in keys))
    write(f"counts written to {path}")
