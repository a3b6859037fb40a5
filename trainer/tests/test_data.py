import numpy as np
import pandas as pd
import pytest

from itsrt_trainer import data as d
from conftest import canonical_table


def test_windows_are_consecutive_and_target_is_the_next_flow(tmp_path):
    path = tmp_path / "t.csv"
    table = canonical_table(days=2)
    table.to_csv(path, index=False)
    windows = d.make_windows(d.read_canonical(path))
    # 2 stations x (576 readings - 12) windows each.
    assert len(windows) == 2 * (576 - 12)
    station = table[table.station_id == 764598].reset_index(drop=True)
    first = np.flatnonzero(windows.station == 764598)[0]
    assert np.array_equal(windows.flow[first], station.flow[:12].to_numpy())
    assert windows.target[first] == station.flow[12]


def test_windows_never_cross_a_gap(tmp_path):
    path = tmp_path / "t.csv"
    canonical_table(days=2, gap_at=100).to_csv(path, index=False)
    windows = d.make_windows(d.read_canonical(path))
    # Each station loses the windows whose 13 readings include the 3 missing ones' neighbours:
    # 573 readings in two runs of 100 and 473 -> (100-12) + (473-12) windows.
    assert len(windows) == 2 * ((100 - 12) + (473 - 12))
    steps = np.diff(windows.target_time[windows.station == 764598]).astype("timedelta64[m]")
    assert (steps >= np.timedelta64(5, "m")).all()


def test_dst_day_keeps_5_minute_steps_in_utc(tmp_path):
    path = tmp_path / "t.csv"
    canonical_table(days=4).to_csv(path, index=False)
    windows = d.make_windows(d.read_canonical(path))
    # 2018-03-11 has 23 local hours but UTC stays regular: no window is lost over the change.
    assert len(windows) == 2 * (4 * 288 - 12)


def test_scaler_is_fitted_on_training_windows_only(tmp_path):
    path = tmp_path / "t.csv"
    table = canonical_table(days=4)
    table.loc[table.index[-1], "flow"] = 10_000  # an outlier in the test period
    table.to_csv(path, index=False)
    windows = d.make_windows(d.read_canonical(path))
    split = d.fraction_split(windows, 0.8)
    train_mask, test_mask = d.split_masks(windows, split)
    assert train_mask.sum() == pytest.approx(0.8 * len(windows), abs=2)
    scaler = d.FeatureScaler.fit(windows.subset(train_mask), ("flow",))
    assert scaler.maximum["flow"] < 10_000
    train_times = windows.target_time[train_mask]
    assert train_times.max() < windows.target_time[test_mask].min()


def test_study_split_cutoff_is_pacific_local_time():
    assert d.study_split().cutoff == pd.Timestamp("2018-03-24T13:15:00Z")


def test_unknown_speed_is_filled_not_zero(tmp_path):
    path = tmp_path / "t.csv"
    table = canonical_table(days=2)
    table.loc[table.station_id == 764598, "speed"] = np.nan  # a flow-only station
    table.to_csv(path, index=False)
    windows = d.make_windows(d.read_canonical(path))
    scaler = d.FeatureScaler.fit(windows, ("flow", "speed"))
    x = d.feature_tensor(windows, ("flow", "speed"), scaler)
    filled = scaler.scale("speed", np.array(scaler.speed_fill))
    flow_only = windows.station == 764598
    assert np.allclose(x[flow_only, :, 1], filled, rtol=1e-6)
    assert not np.isnan(x).any()
    assert scaler.speed_fill > 30


def test_bad_table_is_refused_with_file_and_line(tmp_path):
    path = tmp_path / "t.csv"
    table = canonical_table(days=1)
    table.loc[5, "flow"] = -3
    table.to_csv(path, index=False)
    with pytest.raises(d.CanonicalTableError, match=r"t\.csv: line 7, column flow"):
        d.read_canonical(path)
    with pytest.raises(d.CanonicalTableError, match="no such file"):
        d.read_canonical(tmp_path / "missing.csv")
    table.drop(columns=["lanes"]).to_csv(path, index=False)
    with pytest.raises(d.CanonicalTableError, match=r"missing column\(s\) \['lanes'\]"):
        d.read_canonical(path)
