"""Writes encoder-cases.json: windows encoded by the trainer's own feature_tensor.

Run from the repository root: PYTHONPATH=trainer trainer/.venv/bin/python \
    its-model/src/test/resources/predict/make_encoder_cases.py
"""
import json
from pathlib import Path

import numpy as np
import pandas as pd

from itsrt_trainer.data import TIMEZONE, WINDOW, FeatureScaler, Windows, feature_tensor

SCALER = FeatureScaler({"flow": 83.0, "speed": 49.7}, {"flow": 409.0, "speed": 72.4}, speed_fill=67.7)
ALL = ("flow", "speed", "tod_sin", "tod_cos")

CASES = [
    # name, newest reading's start (UTC), features
    ("spring forward: newest 01:55 PST, all in standard time", "2018-03-11T09:55:00Z", ALL),
    ("spring forward: newest 03:00 PDT, the rest 01:05-01:55 PST", "2018-03-11T10:00:00Z", ALL),
    ("fall back: newest 01:55 PDT", "2018-11-04T08:55:00Z", ALL),
    ("fall back: newest 01:00 PST, the rest 01:05-01:55 PDT", "2018-11-04T09:00:00Z", ALL),
    ("midnight: 23:10 to 00:05 PDT", "2018-03-28T07:05:00Z", ALL),
    ("study week, flow only", "2018-03-28T15:05:00Z", ("flow",)),
    ("time only, sin before cos", "2018-03-21T20:30:00Z", ("tod_cos", "tod_sin")),
]


def window(newest: str, seed: int) -> Windows:
    rng = np.random.default_rng(seed)
    newest_ts = pd.Timestamp(newest)
    ts = pd.Series(pd.date_range(end=newest_ts, periods=WINDOW, freq="5min"))
    local = ts.dt.tz_convert(TIMEZONE)
    seconds = (local.dt.hour * 3600 + local.dt.minute * 60 + local.dt.second).to_numpy(np.float64)
    flow = rng.integers(0, 600, WINDOW).astype(np.float64)
    speed = np.round(rng.uniform(20, 75, WINDOW), 1)
    speed[rng.random(WINDOW) < 0.3] = np.nan
    return Windows(station=np.array([400001]), target_time=np.array([ts.iloc[-1].tz_localize(None).to_datetime64()
                                                                     + np.timedelta64(5, "m")]),
                   flow=flow[None, :], speed=speed[None, :], seconds_of_day=seconds[None, :],
                   target=np.array([0.0]))


cases = []
for seed, (name, newest, features) in enumerate(CASES):
    w = window(newest, seed)
    encoded = feature_tensor(w, features, SCALER)[0]
    cases.append({
        "name": name,
        "features": list(features),
        "flows": w.flow[0].tolist(),
        "speeds": [None if np.isnan(v) else float(v) for v in w.speed[0]],
        "newest_ts_utc": newest,
        "expected": encoded.astype(np.float64).tolist(),
    })
out = {"timezone": TIMEZONE, "scaler": SCALER.to_json(), "cases": cases}
Path(__file__).with_name("encoder-cases.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
