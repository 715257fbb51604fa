"""nlpaug's augmenters on the real GeoQuery (SEMPARSE_DATA_DIR): every literal of every rewrite intact."""

from __future__ import annotations

import pytest

from textattack_semparse.robustness.build_test_set import build_test_set

from tests.robustness.test_build_nlpaug_test_set import SWAPS, TYPOS, assert_every_literal_intact


@pytest.mark.real_data
@pytest.mark.parametrize("dataset", ["geo-question-test", "geo-lambda-test"])
def test_every_literal_of_every_rewrite_is_intact_on_real_geoquery(real_data_dir, encoder, dataset):
    built = build_test_set(dataset, [TYPOS, SWAPS], setting=None, selection=(None, None), limit=60, encoder=encoder, judges=())
    assert assert_every_literal_intact(built) > 500
