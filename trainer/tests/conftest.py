"""Fixtures: a small canonical table, generated here so the tests need no data files."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

STATIONS = {764598: 5, 717731: 4}


def canonical_table(days: int = 4, seed: int = 3, gap_at: int | None = None,
                    start: str = "2018-03-09") -> pd.DataFrame:
    """Daily-periodic flows with noise for two stations, in the canonical table's columns."""
    rng = np.random.default_rng(seed)
    # The default start spans the DST change of 2018-03-11; UTC steps stay 5 minutes throughout.
    first = pd.Timestamp(start, tz="America/Los_Angeles").tz_convert("UTC")
    utc = pd.date_range(first, periods=days * 288, freq="5min")
    local = utc.tz_convert("America/Los_Angeles")
    frames = []
    for station, lanes in STATIONS.items():
        hours = np.asarray(local.hour + local.minute / 60, dtype=np.float64)
        profile = 0.3 + 0.7 * np.exp(-((hours - 8) ** 2) / 4) + 0.6 * np.exp(-((hours - 17) ** 2) / 6)
        flow = np.round(profile * 80 * lanes + rng.normal(0, 5, len(local))).clip(0)
        speed = np.round(70 - 25 * (profile - 0.3) + rng.normal(0, 1, len(local)), 1)
        frame = pd.DataFrame({
            "station_id": station,
            "ts_utc": utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "ts_local": [t.isoformat() for t in utc.tz_convert("America/Los_Angeles")],
            "flow": flow, "speed": speed, "pct_observed": 100.0, "lanes": lanes,
            "source": "synthetic:seed=3",
        })
        if gap_at is not None:
            frame = frame.drop(frame.index[gap_at:gap_at + 3])
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


@pytest.fixture
def table_path(tmp_path):
    path = tmp_path / "readings.csv"
    canonical_table().to_csv(path, index=False)
    return path
