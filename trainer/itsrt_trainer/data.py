"""Canonical readings -> supervised windows, chronological splits and the min-max scaler.

The trainer reads only the canonical table (docs/canonical-table.md). A window is 12 consecutive
5-minute readings of one station (oldest first) and its target is the station's next flow.
Windows never cross a gap in a station's series, and never mix stations.
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
from pathlib import Path

import numpy as np
import pandas as pd

WINDOW = 12
INTERVAL = pd.Timedelta(minutes=5)
TIMEZONE = "America/Los_Angeles"
REQUIRED_COLUMNS = ["station_id", "ts_utc", "ts_local", "flow", "speed", "pct_observed", "lanes", "source"]

# Features a model may use, each one value per reading of the window (docs/model-bundle.md).
FEATURES = ("flow", "speed", "tod_sin", "tod_cos")
SCALED_FEATURES = ("flow", "speed")

# The study's own split: training data up to 2018-03-24 06:15 Pacific, test from there on.
STUDY_SPLIT_LOCAL = "2018-03-24 06:15"


class CanonicalTableError(ValueError):
    """The input file is not a canonical readings table; the message names file and row."""


def read_canonical(path: str | Path) -> pd.DataFrame:
    """Reads and validates a canonical readings table (.csv or .csv.gz)."""
    path = Path(path)
    if not path.is_file():
        raise CanonicalTableError(f"{path}: no such file (expected a canonical readings table, "
                                  f"see docs/canonical-table.md)")
    df = pd.read_csv(path, dtype={"station_id": "int64", "source": "string"}, keep_default_na=False,
                     na_values={"speed": [""], "pct_observed": [""]})
    missing = [c for c in REQUIRED_COLUMNS if c not in df.columns]
    if missing:
        raise CanonicalTableError(f"{path}: missing column(s) {missing}; header is {list(df.columns)}")
    df["ts_utc"] = pd.to_datetime(df["ts_utc"], utc=True, format="ISO8601")
    for column in ("flow", "speed", "pct_observed"):
        df[column] = pd.to_numeric(df[column], errors="coerce")
    bad_flow = df["flow"].isna() | (df["flow"] < 0)
    if bad_flow.any():
        row = int(np.flatnonzero(bad_flow.to_numpy())[0])
        raise CanonicalTableError(f"{path}: line {row + 2}, column flow: expected a number >= 0")
    duplicated = df.duplicated(["station_id", "ts_utc"])
    if duplicated.any():
        row = int(np.flatnonzero(duplicated.to_numpy())[0])
        raise CanonicalTableError(f"{path}: line {row + 2}: station and ts_utc repeat an earlier row")
    return df.sort_values(["station_id", "ts_utc"], kind="stable").reset_index(drop=True)


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclasses.dataclass(frozen=True)
class Windows:
    """All windows of a table, in one pooled array; rows ordered by station, then time."""

    station: np.ndarray      # [n] VDS id
    target_time: np.ndarray  # [n] datetime64[ns] (UTC) start of the target interval
    flow: np.ndarray         # [n, 12] raw flows, oldest first
    speed: np.ndarray        # [n, 12] raw speeds, NaN where unknown
    seconds_of_day: np.ndarray  # [n, 12] local time of day of each reading, seconds
    target: np.ndarray       # [n] raw flow of the next interval

    def __len__(self) -> int:
        return len(self.target)

    def subset(self, mask: np.ndarray) -> "Windows":
        return Windows(*(getattr(self, f.name)[mask] for f in dataclasses.fields(self)))


def make_windows(df: pd.DataFrame) -> Windows:
    """Every run of 13 consecutive readings of a station gives one window and its target."""
    parts = []
    for station, group in df.groupby("station_id", sort=True):
        ts = group["ts_utc"].dt.tz_localize(None).to_numpy()  # datetime64[ns], UTC
        n = len(group) - WINDOW
        if n <= 0:
            continue
        # A window is valid when all 13 readings are exactly 5 minutes apart.
        step_ok = np.diff(ts) == np.timedelta64(INTERVAL)
        run_ok = np.lib.stride_tricks.sliding_window_view(step_ok, WINDOW).all(axis=1)
        starts = np.flatnonzero(run_ok)
        if len(starts) == 0:
            continue
        idx = starts[:, None] + np.arange(WINDOW)[None, :]
        flow = group["flow"].to_numpy(dtype=np.float64)
        speed = group["speed"].to_numpy(dtype=np.float64)
        local = group["ts_utc"].dt.tz_convert(TIMEZONE)
        seconds = (local.dt.hour * 3600 + local.dt.minute * 60 + local.dt.second).to_numpy(np.float64)
        parts.append(Windows(
            station=np.full(len(starts), station, dtype=np.int64),
            target_time=ts[starts + WINDOW],
            flow=flow[idx],
            speed=speed[idx],
            seconds_of_day=seconds[idx],
            target=flow[starts + WINDOW],
        ))
    if not parts:
        raise CanonicalTableError("the table holds no run of 13 consecutive readings of any station")
    return Windows(*(np.concatenate([getattr(p, f.name) for p in parts])
                     for f in dataclasses.fields(Windows)))


@dataclasses.dataclass(frozen=True)
class Split:
    name: str
    cutoff: pd.Timestamp  # windows whose target starts before it train, the rest test
    description: str


def study_split() -> Split:
    cutoff = pd.Timestamp(STUDY_SPLIT_LOCAL, tz=TIMEZONE).tz_convert("UTC")
    return Split("study", cutoff, f"chronological, test targets from {STUDY_SPLIT_LOCAL} Pacific "
                                  f"(the study's public code; about 75/25 on March 2018)")


def fraction_split(windows: Windows, train_fraction: float = 0.8) -> Split:
    """Chronological split of the pooled windows: the earliest train_fraction train."""
    times = np.sort(windows.target_time)
    cutoff = pd.Timestamp(times[int(math.floor(train_fraction * len(times)))]).tz_localize("UTC")
    percent = round(train_fraction * 100)
    return Split(f"chrono-{percent}-{100 - percent}", cutoff,
                 f"chronological {percent}/{100 - percent} over all stations pooled, "
                 f"test targets from {cutoff.tz_convert(TIMEZONE):%Y-%m-%d %H:%M} Pacific")


def split_masks(windows: Windows, split: Split) -> tuple[np.ndarray, np.ndarray]:
    cutoff = np.datetime64(split.cutoff.tz_convert("UTC").tz_localize(None), "ns")
    train = windows.target_time < cutoff
    return train, ~train


@dataclasses.dataclass(frozen=True)
class FeatureScaler:
    """Min-max scaling per feature, fitted on training windows only (never on test data)."""

    minimum: dict[str, float]
    maximum: dict[str, float]
    speed_fill: float | None = None  # replaces an unknown speed before scaling

    @staticmethod
    def fit(train: Windows, features: tuple[str, ...]) -> "FeatureScaler":
        flows = np.concatenate([train.flow.ravel(), train.target])
        minimum, maximum = {"flow": float(flows.min())}, {"flow": float(flows.max())}
        speed_fill = None
        if "speed" in features:
            known = train.speed[~np.isnan(train.speed)]
            minimum["speed"], maximum["speed"] = float(known.min()), float(known.max())
            speed_fill = float(np.median(known))
        return FeatureScaler(minimum, maximum, speed_fill)

    def scale(self, feature: str, values: np.ndarray) -> np.ndarray:
        span = self.maximum[feature] - self.minimum[feature]
        return (values - self.minimum[feature]) / span

    def unscale_flow(self, scaled: np.ndarray) -> np.ndarray:
        return scaled * (self.maximum["flow"] - self.minimum["flow"]) + self.minimum["flow"]

    def to_json(self) -> dict:
        out = {f: {"min": self.minimum[f], "max": self.maximum[f]} for f in self.minimum}
        if self.speed_fill is not None:
            out["speed"]["fill"] = self.speed_fill
        return out


def feature_tensor(windows: Windows, features: tuple[str, ...], scaler: FeatureScaler) -> np.ndarray:
    """[n, 12, F] float32 model input, feature order as given (docs/model-bundle.md)."""
    columns = []
    for feature in features:
        if feature == "flow":
            columns.append(scaler.scale("flow", windows.flow))
        elif feature == "speed":
            speed = np.where(np.isnan(windows.speed), scaler.speed_fill, windows.speed)
            columns.append(scaler.scale("speed", speed))
        elif feature == "tod_sin":
            columns.append(np.sin(2 * np.pi * windows.seconds_of_day / 86400.0))
        elif feature == "tod_cos":
            columns.append(np.cos(2 * np.pi * windows.seconds_of_day / 86400.0))
        else:
            raise ValueError(f"unknown feature {feature!r}; known: {FEATURES}")
    return np.stack(columns, axis=-1).astype(np.float32)
