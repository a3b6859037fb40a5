"""The JVM kernel's weight precisions (docs/inference.md), reproduced in numpy for the model card.

The kernel engines `kernel-bf16` and `kernel-int8` store the weight matrices of every layer
(biases stay float32) as bfloat16 or as int8 with one scale per output column, and compute in
float32. Their predictions are therefore the float32 network's on rounded weights; this module
rounds the weights exactly as the kernel does (its-model, WeightPrecision) and runs the network
forward, so that the trainer can score each precision on the test windows.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PRECISIONS = ("fp32", "bf16", "int8")
ENGINE_OF = {"fp32": "kernel", "bf16": "kernel-bf16", "int8": "kernel-int8"}


def round_bf16(w: np.ndarray) -> np.ndarray:
    """bfloat16 rounding to nearest even, returned as float32 (NaN-free weights assumed)."""
    bits = np.ascontiguousarray(w, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return (rounded & 0xFFFFFFFF).astype(np.uint32).view(np.float32)


def round_int8(w: np.ndarray) -> np.ndarray:
    """Symmetric int8 per output column (last axis): scale max |w| / 127, nearest step (halves up)."""
    w = np.asarray(w, dtype=np.float32)
    scale = (np.abs(w).max(axis=0) / np.float32(127)).astype(np.float32)
    safe = np.where(scale == 0, np.float32(1), scale)
    q = np.clip(np.floor((w / safe).astype(np.float32) + np.float32(0.5)), -127, 127)
    return np.where(scale == 0, np.float32(0), q.astype(np.float32) * scale).astype(np.float32)


def rounded(weights: dict[str, np.ndarray], precision: str) -> dict[str, np.ndarray]:
    """Every weight matrix (2-D) rounded to `precision`; biases (1-D) kept as they are."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; known: {', '.join(PRECISIONS)}")
    if precision == "fp32":
        return dict(weights)
    rounding = round_bf16 if precision == "bf16" else round_int8
    return {name: rounding(w) if np.ndim(w) == 2 else np.asarray(w, dtype=np.float32)
            for name, w in weights.items()}


def weights_of_keras(model) -> dict[str, np.ndarray]:
    """Name -> value as the SavedModel's `weights` signature names them ('lstm_1__lstm_cell__kernel')."""
    return {v.path.replace("/", "__"): np.asarray(v.value, dtype=np.float32) for v in model.weights}


def weights_of_saved_model(saved_model: Path) -> dict[str, np.ndarray]:
    """The bundle's weights, read through the SavedModel's `weights` signature as the JVM kernel reads them."""
    import tensorflow as tf

    loaded = tf.saved_model.load(str(saved_model))
    return {name: np.asarray(t.numpy(), dtype=np.float32)
            for name, t in loaded.signatures["weights"]().items()}


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def forward(weights: dict[str, np.ndarray], layers: list[dict], x: np.ndarray) -> np.ndarray:
    """The network of model.json `layers` on x [n, 12, F] (scaled), in float64: [n] scaled outputs.

    Keras' LSTM (gates input, forget, candidate, output; sigmoid and tanh), then Dense layers.
    float64 so that the precisions differ by their weights only, not by summation order.
    """
    h = np.asarray(x, dtype=np.float64)
    for layer in layers:
        name = layer["name"]
        if layer["type"] == "lstm":
            kernel = weights[f"{name}__lstm_cell__kernel"].astype(np.float64)
            recurrent = weights[f"{name}__lstm_cell__recurrent_kernel"].astype(np.float64)
            bias = weights[f"{name}__lstm_cell__bias"].astype(np.float64)
            units = layer["units"]
            projected = h @ kernel + bias  # [n, T, 4u]: the whole sequence at once, as the kernel does
            state = np.zeros((len(h), units))
            cell = np.zeros((len(h), units))
            outputs = []
            for t in range(h.shape[1]):
                z = projected[:, t] + state @ recurrent
                i, f, c, o = (z[:, k * units:(k + 1) * units] for k in range(4))
                cell = _sigmoid(f) * cell + _sigmoid(i) * np.tanh(c)
                state = _sigmoid(o) * np.tanh(cell)
                outputs.append(state)
            h = np.stack(outputs, axis=1) if layer.get("return_sequences") else state
        else:
            h = h @ weights[f"{name}__kernel"].astype(np.float64) + weights[f"{name}__bias"].astype(np.float64)
            if layer.get("activation") == "relu":
                h = np.maximum(h, 0)
    return h.reshape(-1)


def engine_rows(weights: dict[str, np.ndarray], layers: list[dict], x_test: np.ndarray,
                target: np.ndarray, reference_scaled: np.ndarray, unscale_flow) -> list[dict]:
    """Test scores of the float32 reference (TensorFlow's predictions) and of each kernel precision.

    Each precision's row carries its MSE change against the reference, in percent, and its largest
    prediction difference from it (veh/5 min). The `kernel` row (float32 weights, float64 sums
    here) shows how close this numpy forward pass is to TensorFlow.
    """
    from .models import score

    reference = unscale_flow(np.asarray(reference_scaled, dtype=np.float64).reshape(-1))
    base = score(target, reference)
    rows = [{"engine": "tensorflow", "weights": "float32", "scores": base}]
    for precision in PRECISIONS:
        predicted = unscale_flow(forward(rounded(weights, precision), layers, x_test))
        scores = score(target, predicted)
        rows.append({"engine": ENGINE_OF[precision],
                     "weights": {"fp32": "float32", "bf16": "bfloat16", "int8": "int8, scale per column"}[precision],
                     "scores": scores,
                     "mse_change_percent": (scores.mse - base.mse) / base.mse * 100,
                     "max_abs_diff": float(np.max(np.abs(predicted - reference)))})
    return rows
