"""Writes the bundle's ONNX graph (`model.onnx`) for the JVM's `onnx` engine (docs/model-bundle.md).

    python -m itsrt_trainer.onnx_export --bundle models/lstm-flow

`./its train` calls it for every bundle it writes; run alone, it adds the graph to a bundle trained
before, from the weights its SavedModel holds, and records it in `model.json`.

Why through Keras 2: tf2onnx turns Keras 3's recurrent layers into ONNX `Loop` operators that run
the cell step by step (its rewriters recognise the graphs of Keras 2's LSTM and GRU, not Keras
3's). The same network rebuilt with `tf_keras` (Keras 2, the same TensorFlow) from the trained
weights converts into ONNX's own `LSTM` and `GRU` operators, which ONNX Runtime runs as one fused
kernel per layer. The rebuilt network must reproduce the SavedModel before the graph is written.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ONNX_FILE = "model.onnx"
# Opset 17: every operator the graph needs (LSTM, GRU, MatMul, Relu) and what ONNX Runtime 1.29 runs.
OPSET = 17
# The rebuilt network against the SavedModel, on the scaled axis: float32 rounding, not a mistake.
TWIN_TOLERANCE = 1e-5


class OnnxExportError(Exception):
    """The graph could not be written as model.json describes it; the message says why."""


def keras2_twin(layers: list[dict], window: int, n_features: int, weights: dict[str, np.ndarray]):
    """The network model.json's layers describe, in tf_keras, holding `weights` (named as the
    SavedModel's `weights` signature names them, e.g. 'lstm_1__lstm_cell__kernel')."""
    import tf_keras

    inputs = tf_keras.Input(shape=(window, n_features), name="flows", dtype="float32")
    x = inputs
    assigned = []
    for spec in layers:
        name, kind = spec["name"], spec["type"]
        if kind == "lstm":
            layer = tf_keras.layers.LSTM(spec["units"], activation=spec["activation"],
                                         return_sequences=spec.get("return_sequences", False), name=name)
            variables = [f"{name}__lstm_cell__{v}" for v in ("kernel", "recurrent_kernel", "bias")]
        elif kind == "gru":
            # Keras' default GRU (reset_after=True, a bias per input and recurrent side) in both versions.
            layer = tf_keras.layers.GRU(spec["units"], activation=spec["activation"], reset_after=True,
                                        return_sequences=spec.get("return_sequences", False), name=name)
            variables = [f"{name}__gru_cell__{v}" for v in ("kernel", "recurrent_kernel", "bias")]
        elif kind == "dense":
            layer = tf_keras.layers.Dense(spec["units"], activation=spec["activation"], name=name)
            variables = [f"{name}__{v}" for v in ("kernel", "bias")]
        else:
            raise OnnxExportError(f"layer {name!r}: type {kind!r} has no Keras 2 twin (lstm, gru, dense)")
        x = layer(x)
        missing = [v for v in variables if v not in weights]
        if missing:
            raise OnnxExportError(f"layer {name!r}: no weights {missing}; the bundle has {sorted(weights)}")
        layer.set_weights([weights[v] for v in variables])
        assigned += variables
    unused = sorted(set(weights) - set(assigned))
    if unused:
        raise OnnxExportError(f"weights {unused} belong to no layer model.json lists")
    return tf_keras.Model(inputs, x, name="onnx_twin")


def export_onnx(layers: list[dict], window: int, n_features: int, weights: dict[str, np.ndarray],
                predict_reference, path: Path, probe_count: int = 64, seed: int = 0) -> dict:
    """Writes the graph to `path` and returns model.json's `onnx` section.

    predict_reference: x [n, window, F] float32 -> [n] scaled outputs of the trained model; the
    rebuilt network must match it on `probe_count` random windows before anything is written.
    """
    import tensorflow as tf
    import tf2onnx

    twin = keras2_twin(layers, window, n_features, weights)
    probe = np.random.default_rng(seed).uniform(-0.1, 1.1, size=(probe_count, window, n_features)).astype(np.float32)
    gap = float(np.max(np.abs(np.asarray(twin(probe)).reshape(-1) - np.asarray(predict_reference(probe)).reshape(-1))))
    if not gap <= TWIN_TOLERANCE:
        raise OnnxExportError(f"the Keras 2 twin differs from the trained model by {gap:.3g} (scaled) "
                              f"on {probe_count} random windows; nothing written")
    twin.output_names = ["flow_next"]
    proto, _ = tf2onnx.convert.from_keras(
        twin, input_signature=[tf.TensorSpec([None, window, n_features], tf.float32, name="flows")],
        opset=OPSET, output_path=str(path))
    operators = sorted({node.op_type for node in proto.graph.node})
    return {"file": path.name, "input": "flows", "output": "flow_next", "opset": OPSET,
            "exporter": f"tf2onnx {tf2onnx.__version__} from a tf_keras twin", "operators": operators,
            "twin_max_abs_difference": gap}


def saved_model_serve(saved_model: Path):
    """x -> the SavedModel's `serve` outputs, flattened."""
    import tensorflow as tf

    loaded = tf.saved_model.load(str(saved_model))
    serve = loaded.signatures["serve"]
    return lambda x: serve(flows=tf.constant(x))["flow_next"].numpy().reshape(-1)


def add_to_bundle(bundle: Path) -> dict:
    """Writes model.onnx from the bundle's SavedModel weights and records it in model.json."""
    from .precision import weights_of_saved_model

    model_json = bundle / "model.json"
    spec = json.loads(model_json.read_text(encoding="utf-8"))
    section = export_onnx(spec["layers"], spec["window"], len(spec["features"]),
                          weights_of_saved_model(bundle / "saved_model"),
                          saved_model_serve(bundle / "saved_model"), bundle / ONNX_FILE)
    spec["onnx"] = section
    model_json.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    return section


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m itsrt_trainer.onnx_export", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", required=True, type=Path, action="append",
                   help="model bundle folder with saved_model/ and model.json (repeatable)")
    args = p.parse_args(argv)
    for bundle in args.bundle:
        if not (bundle / "saved_model" / "saved_model.pb").is_file() or not (bundle / "model.json").is_file():
            print(f"error: {bundle}: expected a model bundle with saved_model/ and model.json", file=sys.stderr)
            return 2
        try:
            section = add_to_bundle(bundle)
        except OnnxExportError as e:
            print(f"error: {bundle}: {e}", file=sys.stderr)
            return 2
        print(f"wrote {bundle / section['file']} (operators: {', '.join(section['operators'])}; "
              f"twin vs SavedModel max |difference| {section['twin_max_abs_difference']:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
