"""Tests for textattack_semparse.sql.execution_result.ExecutionResult."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from textattack_semparse.sql.execution_result import ExecutionResult


def test_successful_result_is_ok():
    assert ExecutionResult(rows=(("austin",),), columns=("capital",)).ok


def test_empty_result_is_ok():
    assert ExecutionResult(rows=(), columns=("capital",)).ok


def test_truncated_result_is_still_ok():
    assert ExecutionResult(rows=((1,),), columns=("x",), truncated=True).ok


def test_error_is_not_ok():
    assert not ExecutionResult.failure("no such table: stat").ok


def test_timed_out_is_not_ok_even_without_error():
    assert not ExecutionResult(rows=(), columns=(), timed_out=True).ok


def test_failure_has_no_rows_or_columns():
    result = ExecutionResult.failure("interrupted", timed_out=True)
    assert (result.rows, result.columns, result.error, result.timed_out) == ((), (), "interrupted", True)


def test_is_frozen():
    result = ExecutionResult(rows=(), columns=())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.error = "x"


def test_is_hashable_and_compares_by_value():
    a = ExecutionResult(rows=((1, None, "x", b"\x00"),), columns=("a", "b", "c", "d"))
    b = ExecutionResult(rows=((1, None, "x", b"\x00"),), columns=("a", "b", "c", "d"))
    assert a == b and hash(a) == hash(b)


def test_running_time_is_not_part_of_the_value():
    fast = ExecutionResult(rows=((1,),), columns=("x",), seconds=0.001)
    slow = ExecutionResult(rows=((1,),), columns=("x",), seconds=2.5)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert (fast.seconds, ExecutionResult.failure("boom").seconds) == (0.001, 0.0)


def test_pickles():
    result = ExecutionResult(rows=((1.5, "texas"),), columns=("x", "y"), truncated=True)
    assert pickle.loads(pickle.dumps(result)) == result
