"""Writes the model bundle the JVM reads (docs/model-bundle.md)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .data import WINDOW, FeatureScaler, Windows, feature_tensor, TIMEZONE
from .models import layer_descriptions

BUNDLE_FORMAT = 1
SIGNATURE = {"name": "serve", "input": "flows", "output": "flow_next"}


def weight_name(variable_path: str) -> str:
    """Keras variable path 'lstm_1/lstm_cell/kernel' -> signature output 'lstm_1__lstm_cell__kernel'."""
    return variable_path.replace("/", "__")


def export_saved_model(model, n_features: int, directory: Path) -> None:
    """SavedModel with two signatures: `serve` (the prediction) and `weights` (every variable).

    Exported through Keras' ExportArchive (a plain tf.Module export does not load in TensorFlow
    Java 1.1.0). The `weights` signature lets the JVM kernel read the very same weights, so the
    SavedModel stays the single artifact.
    """
    import keras
    import tensorflow as tf

    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint(
        name=SIGNATURE["name"],
        fn=lambda flows: {SIGNATURE["output"]: model(flows, training=False)},
        input_signature=[tf.TensorSpec([None, WINDOW, n_features], tf.float32, name=SIGNATURE["input"])],
    )
    variables = {weight_name(v.path): v for v in model.weights}
    archive.add_endpoint(
        name="weights",
        fn=lambda: {name: tf.identity(v.value) for name, v in variables.items()},
        input_signature=[],
    )
    archive.write_out(str(directory), verbose=False)


def model_json(name: str, features: tuple[str, ...], architecture: str, cell: str, onnx: dict) -> dict:
    return {
        "format": BUNDLE_FORMAT,
        "name": name,
        "window": WINDOW,
        "interval_seconds": 300,
        "features": list(features),
        "target": "flow",
        "timezone": TIMEZONE,
        "layers": layer_descriptions(architecture, cell),
        "signature": SIGNATURE,
        "onnx": onnx,
    }


def linear_json(linear_model, features: tuple[str, ...]) -> dict:
    return {
        "features": list(features),
        "window": WINDOW,
        "coefficients": [float(c) for c in np.ravel(linear_model.coef_)],
        "intercept": float(np.ravel(linear_model.intercept_)[0]) if np.ndim(linear_model.intercept_)
        else float(linear_model.intercept_),
    }


def reference_json(model, linear_model, windows: Windows, features: tuple[str, ...],
                   scaler: FeatureScaler, count: int = 256) -> dict:
    """Evenly spaced test windows with Keras' and the linear model's outputs, for JVM tests."""
    pick = np.unique(np.linspace(0, len(windows) - 1, num=min(count, len(windows))).astype(int))
    sample = windows.subset(pick)
    x = feature_tensor(sample, features, scaler)
    lstm_scaled = np.asarray(model(x, training=False)).reshape(-1).astype(np.float64)
    # In float64 from the same float32 features, so a JVM check is not limited by float32 sums.
    linear_scaled = linear_model.predict(x.reshape(len(x), -1).astype(np.float64)).reshape(-1)
    newest = pd.to_datetime(sample.target_time, utc=True) - pd.Timedelta(minutes=5)
    return {
        "count": int(len(pick)),
        "flows": sample.flow.tolist(),
        "speeds": [[None if np.isnan(v) else float(v) for v in row] for row in sample.speed],
        "newest_ts_utc": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in newest],
        "lstm_scaled": lstm_scaled.tolist(),
        "lstm_flow": scaler.unscale_flow(lstm_scaled).tolist(),
        "linear_scaled": linear_scaled.tolist(),
    }


def write_json(path: Path, content: dict) -> None:
    path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
