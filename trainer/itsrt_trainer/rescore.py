"""Adds the rows that need no retraining to an existing bundle's metrics and model card.

    python -m itsrt_trainer.rescore --data data/pems-2018-03-d07.csv --bundle models/lstm-flow

For every split in the bundle's metrics.json: the persistence row (next flow = last flow); for
the shipped model's split: its test scores per JVM engine weight precision, with the weights
read from the SavedModel. The table must be the one the bundle was trained on (the test window
counts are checked). `./its train` writes the same rows itself; this is for a bundle trained
before they existed.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

import numpy as np

from . import data as d
from .export import write_json
from .precision import engine_rows, weights_of_saved_model
from .report import extra_card_lines, metrics_markdown
from .train import persistence_row, resolve_split

CARD_SECTIONS = ("## Against the naive forecast", "## The shipped LSTM per JVM engine")


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m itsrt_trainer.rescore", description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, required=True, help="the canonical table the bundle was trained on")
    p.add_argument("--bundle", type=Path, required=True, help="the model bundle to update, e.g. models/lstm-flow")
    return p.parse_args(argv)


def serve(saved_model: Path, x: np.ndarray) -> np.ndarray:
    """The SavedModel's `serve` signature on x, in batches: the float32 reference predictions."""
    import tensorflow as tf

    signature = tf.saved_model.load(str(saved_model)).signatures["serve"]
    parts = [signature(flows=tf.constant(x[i:i + 1024]))["flow_next"].numpy().reshape(-1)
             for i in range(0, len(x), 1024)]
    return np.concatenate(parts)


def rescore(data: Path, bundle: Path) -> dict:
    model = json.loads((bundle / "model.json").read_text())
    scaler_json = json.loads((bundle / "scaler.json").read_text())
    metrics = json.loads((bundle / "metrics.json").read_text())
    features = tuple(model["features"])
    scaler = d.FeatureScaler({f: v["min"] for f, v in scaler_json.items()},
                             {f: v["max"] for f, v in scaler_json.items()},
                             scaler_json.get("speed", {}).get("fill"))
    windows = d.make_windows(d.read_canonical(data))
    tests = {}
    for result in metrics["results"]:
        name = result["split"]["name"]
        if name not in tests:
            split = resolve_split(name, windows)
            test = windows.subset(d.split_masks(windows, split)[1])
            if len(test) != result["test_windows"]:
                raise d.CanonicalTableError(
                    f"{data}: split {name} gives {len(test)} test windows, {bundle / 'metrics.json'} "
                    f"says {result['test_windows']}; rescore with the table the bundle was trained on")
            tests[name] = (split, test)
        row = persistence_row(tests[name][1])
        result["rows"] = [r for r in result["rows"] if not r["model"].startswith("Persistence")] + [
            {**row, "scores": dataclasses.asdict(row["scores"])}]
    shipped_split = metrics["results"][0]["split"]["name"]
    test = tests[shipped_split][1]
    x_test = d.feature_tensor(test, features, scaler)
    reference = serve(bundle / "saved_model", x_test)
    rows = engine_rows(weights_of_saved_model(bundle / "saved_model"), model["layers"], x_test,
                       test.target, reference, scaler.unscale_flow)
    metrics["engines"] = {"split": shipped_split, "features": "+".join(features), "test_windows": len(test),
                          "rows": [{**r, "scores": dataclasses.asdict(r["scores"])} for r in rows]}
    # The study's Table 2 stays last, as ./its train writes it.
    metrics = {k: metrics[k] for k in sorted(metrics, key=lambda k: k == "study_table2")}
    write_json(bundle / "metrics.json", metrics)
    (bundle / "metrics.md").write_text(metrics_markdown(metrics), encoding="utf-8")
    card = bundle / "model-card.md"
    card.write_text(patch_card(card.read_text(encoding="utf-8"),
                               extra_card_lines(metrics, shipped_split, "+".join(features))), encoding="utf-8")
    return metrics


def patch_card(card: str, extra: list[str]) -> str:
    """The card with its naive-forecast and engine sections replaced by `extra`, before ## Versions."""
    kept, skipping = [], False
    for line in card.splitlines():
        if line.startswith("## "):
            skipping = line.startswith(CARD_SECTIONS)
        if not skipping:
            kept.append(line)
    at = kept.index("## Versions")
    return "\n".join(kept[:at] + extra + kept[at:]) + "\n"


def main(argv=None) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    args = parse_args(argv)
    try:
        metrics = rescore(args.data, args.bundle)
    except d.CanonicalTableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for row in metrics["engines"]["rows"]:
        print(f"{row['engine']:12s} MSE {row['scores']['mse']:.3f}  MAPE {row['scores']['mape']:.3f}  "
              f"change {row.get('mse_change_percent', 0):+.4f} %  max diff {row.get('max_abs_diff', 0):.4f}")
    for result in metrics["results"]:
        naive = next(r for r in result["rows"] if r["model"].startswith("Persistence"))
        print(f"{result['split']['name']} ({result['rows'][0]['features']}): persistence MSE "
              f"{naive['scores']['mse']:.2f}  MAPE {naive['scores']['mape']:.2f} %")
    print(f"updated {args.bundle}/metrics.json, metrics.md, model-card.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
