"""Times one prediction at batch 1 in Python, for comparison with the JVM engines.

    python -m itsrt_trainer.keras_bench --model models/lstm-flow --out results/bench/keras.json

Measures `model(x)` of the Keras model restored from the bundle's SavedModel (the call a Python
service would make) and the `serve` signature, each after a warm-up, one call at a time.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np


def percentiles_us(samples_ns: list[int]) -> dict:
    values = np.asarray(samples_ns, dtype=np.float64) / 1000.0
    return {"count": int(len(values)), "mean_us": float(values.mean()),
            "p50_us": float(np.percentile(values, 50)), "p90_us": float(np.percentile(values, 90)),
            "p99_us": float(np.percentile(values, 99)), "max_us": float(values.max())}


def time_calls(call, x, warmup: int, iterations: int) -> dict:
    for _ in range(warmup):
        call(x)
    samples = []
    for _ in range(iterations):
        started = time.perf_counter_ns()
        call(x)
        samples.append(time.perf_counter_ns() - started)
    return percentiles_us(samples)


def main(argv=None) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    p = argparse.ArgumentParser(prog="keras_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", type=Path, required=True, help="model bundle directory")
    p.add_argument("--out", type=Path, required=True, help="JSON file to write")
    p.add_argument("--warmup", type=int, default=200)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--threads", type=int, default=0,
                   help="TensorFlow intra- and inter-op threads (0 = TensorFlow's default)")
    args = p.parse_args(argv)

    import keras
    import tensorflow as tf

    if args.threads:
        tf.config.threading.set_intra_op_parallelism_threads(args.threads)
        tf.config.threading.set_inter_op_parallelism_threads(args.threads)
    model_json = json.loads((args.model / "model.json").read_text())
    n_features = len(model_json["features"])
    saved = args.model / "saved_model"
    if not saved.is_dir():
        print(f"error: {saved}: no SavedModel there", file=sys.stderr)
        return 2
    layer = keras.layers.TFSMLayer(str(saved), call_endpoint="serve")
    signature = tf.saved_model.load(str(saved)).signatures["serve"]
    rng = np.random.default_rng(7)
    x = tf.constant(rng.random((1, 12, n_features), dtype=np.float32))

    result = {
        "model": str(args.model),
        "tensorflow": tf.__version__, "keras": keras.__version__,
        "threads": args.threads or "default",
        "keras_call_batch1": time_calls(lambda v: layer(v), x, args.warmup, args.iterations),
        "signature_batch1": time_calls(lambda v: signature(flows=v), x, args.warmup, args.iterations),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for name in ("keras_call_batch1", "signature_batch1"):
        r = result[name]
        print(f"{name}: p50 {r['p50_us']:.0f} us, p99 {r['p99_us']:.0f} us, max {r['max_us']:.0f} us "
              f"({r['count']} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
