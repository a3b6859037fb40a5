"""Trains the study's LSTM and its baselines on a canonical table and writes a model bundle.

    python -m itsrt_trainer.train --data data/pems-2018-03-d07.csv --out models/lstm-flow

The first split (default chrono-80-20) trains the shipped model; every split gets a test table
of the LSTM and the four baselines, per feature set, on the original scale (the study's Table 2).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from . import data as d
from .export import (export_saved_model, linear_json, model_json, reference_json, write_json)
from .models import (CELLS, NETWORK_LABELS, PERSISTENCE, ARCHITECTURES, TrainingConfig, baseline_models,
                     layer_descriptions, persistence, score, train_network)
from .onnx_export import ONNX_FILE, export_onnx
from .precision import engine_rows, weights_of_keras
from .report import metrics_markdown, model_card

# The study's published test scores (its Table 2), shown beside ours.
STUDY_TABLE2 = {
    "LSTM": (985.455275, 23.091062, 0.962043),
    "Linear regression": (1013.644990, 23.702992, 0.960957),
    "Random forest": (1083.919621, 24.140704, 0.958250),
    "Gradient boosting": (1151.047555, 25.586357, 0.955664),
    "Decision tree": (1988.652076, 32.951715, 0.923402),
}


def parse_features(text: str) -> tuple[str, ...]:
    features = tuple(f.strip() for f in text.split(",") if f.strip())
    unknown = [f for f in features if f not in d.FEATURES]
    if not features or features[0] != "flow" or unknown:
        raise argparse.ArgumentTypeError(
            f"features must start with 'flow' and use only {', '.join(d.FEATURES)}; got {text!r}")
    return features


def parse_dropout(text: str) -> tuple[float, float]:
    try:
        rates = tuple(float(v) for v in text.split(","))
    except ValueError:
        rates = ()
    if len(rates) != 2 or not all(0 <= r < 1 for r in rates):
        raise argparse.ArgumentTypeError(f"expected two rates in [0, 1) like 0.2,0.4; got {text!r}")
    return rates


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="its train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, type=Path, help="canonical readings table (.csv/.csv.gz)")
    p.add_argument("--out", required=True, type=Path, help="model bundle directory to (re)write")
    p.add_argument("--name", default=None, help="model name (default: the --out folder's name)")
    p.add_argument("--features", type=parse_features, default=("flow",),
                   help="features of the shipped model, comma-separated (default: flow)")
    p.add_argument("--table-features", type=parse_features, action="append", default=None,
                   help="extra feature set for the metrics table (repeatable); the study's "
                        "flow-only set is always included")
    p.add_argument("--splits", default="chrono-80-20,study",
                   help="comma-separated: chrono-80-20 and/or study; the first trains the shipped model")
    p.add_argument("--architecture", choices=sorted(ARCHITECTURES), default="study")
    p.add_argument("--cell", choices=CELLS, default="lstm",
                   help="recurrent cell of both recurrent layers: the study's lstm (every JVM engine runs it) "
                        "or gru (the onnx and tensorflow engines run it)")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--patience", type=int, default=5, help="early-stopping patience (epochs)")
    p.add_argument("--plateau-patience", type=int, default=0,
                   help="halve the learning rate after this many epochs without validation gain "
                        "(0 = constant rate, as in the study)")
    p.add_argument("--dropout", type=parse_dropout, default=(0.2, 0.4), metavar="D1,D2",
                   help="dropout after the second LSTM and after Dense(64) (default: 0.2,0.4 as in "
                        "the study's paper; its public code used 0.2,0.25)")
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--reference-count", type=int, default=256)
    p.add_argument("--shipped-features-only", action="store_true",
                   help="train on the shipped model's features only, without the study's flow-only set "
                        "beside them in the metrics table (half the training time)")
    p.add_argument("--linear-only-baseline", action="store_true",
                   help="skip the tree baselines (quick checks); linear regression always runs, "
                        "it is the bundle's fallback predictor")
    return p.parse_args(argv)


def resolve_split(name: str, windows: d.Windows) -> d.Split:
    if name == "study":
        return d.study_split()
    if name == "chrono-80-20":
        return d.fraction_split(windows, 0.8)
    raise SystemExit(f"error: --splits: unknown split {name!r} (use chrono-80-20 or study)")


def log(message: str) -> None:
    print(message, flush=True)


def run(args: argparse.Namespace) -> dict:
    started = time.monotonic()
    table = d.read_canonical(args.data)
    windows = d.make_windows(table)
    stations = sorted(int(s) for s in np.unique(windows.station))
    sources = sorted(set(table["source"].astype(str)))
    log(f"{args.data}: {len(table)} readings, {len(stations)} stations, {len(windows)} windows "
        f"(source: {', '.join(sources)})")

    feature_sets = [args.features]
    for extra in ([] if args.shipped_features_only else [("flow",)]) + (args.table_features or []):
        if extra not in feature_sets:
            feature_sets.append(extra)
    config = TrainingConfig(architecture=args.architecture, cell=args.cell, epochs=args.epochs,
                            batch_size=args.batch_size, learning_rate=args.learning_rate,
                            patience=args.patience, plateau_patience=args.plateau_patience,
                            dropout=args.dropout,
                            seed=args.seed)
    split_names = [s.strip() for s in args.splits.split(",") if s.strip()]

    results = []  # one entry per (split, features): scores of every model
    shipped = None
    for split_index, split_name in enumerate(split_names):
        split = resolve_split(split_name, windows)
        train_mask, test_mask = d.split_masks(windows, split)
        train, test = windows.subset(train_mask), windows.subset(test_mask)
        if len(train) == 0 or len(test) == 0:
            raise d.CanonicalTableError(
                f"{args.data}: split {split.name} leaves {len(train)} training and {len(test)} test "
                f"windows ({split.description}); the table must span both sides of the cutoff")
        log(f"split {split.name}: {split.description}; {len(train)} train / {len(test)} test windows")
        for features in feature_sets:
            scaler = d.FeatureScaler.fit(train, features)
            x_train = d.feature_tensor(train, features, scaler)
            x_test = d.feature_tensor(test, features, scaler)
            y_train = scaler.scale("flow", train.target).astype(np.float32)
            label = "+".join(features)
            network = NETWORK_LABELS[config.cell]
            log(f"  features {label}: training {network} ({args.architecture})")
            trained = train_network(x_train, y_train, train.target_time, config, log=log)
            network_scaled = trained.model.predict(x_test, batch_size=1024, verbose=0)
            network_pred = scaler.unscale_flow(np.asarray(network_scaled).reshape(-1))
            rows = [{"model": network, "features": label, "scores": score(test.target, network_pred),
                     "epochs_run": trained.epochs_run, "best_epoch": trained.best_epoch,
                     "train_seconds": round(trained.seconds, 1)}]
            log(f"    {network}: {rows[0]['scores']}")
            fitted = {}
            flat_train, flat_test = x_train.reshape(len(x_train), -1), x_test.reshape(len(x_test), -1)
            for name, estimator in baseline_models(args.seed).items():
                if args.linear_only_baseline and name != "Linear regression":
                    continue
                t0 = time.monotonic()
                estimator.fit(flat_train, y_train)
                predicted = scaler.unscale_flow(estimator.predict(flat_test))
                fitted[name] = estimator
                rows.append({"model": name, "features": label, "scores": score(test.target, predicted),
                             "train_seconds": round(time.monotonic() - t0, 1)})
                log(f"    {name}: {rows[-1]['scores']}")
            rows.append(persistence_row(test))
            log(f"    {PERSISTENCE}: {rows[-1]['scores']}")
            results.append({"split": dataclasses.asdict(split) | {"cutoff": str(split.cutoff)},
                            "train_windows": len(train), "test_windows": len(test), "rows": rows})
            if split_index == 0 and features == args.features:
                shipped = (split, features, scaler, trained, fitted["Linear regression"], test)

    write_bundle(args, shipped, results, table_info={
        "path": str(args.data), "sha256": d.file_sha256(args.data), "readings": len(table),
        "stations": stations, "windows": len(windows), "sources": sources,
        "first": str(table["ts_utc"].min()), "last": str(table["ts_utc"].max())},
        config=config, seconds=time.monotonic() - started)
    return {"results": results}


def persistence_row(test: d.Windows) -> dict:
    """Next flow = last flow: the bar every model must clear; it needs no features and no fit."""
    return {"model": PERSISTENCE, "features": "flow (last reading)",
            "scores": score(test.target, persistence(test.flow)), "train_seconds": 0.0}


def engines_section(split: d.Split, features, scaler: d.FeatureScaler, model, layers: list[dict],
                    test: d.Windows) -> dict:
    """The shipped model's test scores per JVM engine weight precision (docs/inference.md)."""
    x_test = d.feature_tensor(test, features, scaler)
    reference = np.asarray(model.predict(x_test, batch_size=1024, verbose=0)).reshape(-1)
    rows = engine_rows(weights_of_keras(model), layers, x_test, test.target, reference, scaler.unscale_flow)
    return {"split": split.name, "features": "+".join(features), "test_windows": len(test), "rows": rows}


def write_bundle(args, shipped, results, table_info, config, seconds) -> None:
    split, features, scaler, trained, linear, test = shipped
    out: Path = args.out
    name = args.name or out.name
    staging = out.with_name(out.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    export_saved_model(trained.model, len(features), staging / "saved_model")
    layers = layer_descriptions(config.architecture, config.cell)
    onnx = export_onnx(layers, d.WINDOW, len(features), weights_of_keras(trained.model),
                       lambda x: np.asarray(trained.model(x, training=False)).reshape(-1), staging / ONNX_FILE)
    write_json(staging / "model.json", model_json(name, features, config.architecture, config.cell, onnx))
    write_json(staging / "scaler.json", scaler.to_json())
    write_json(staging / "linear.json", linear_json(linear, features))
    write_json(staging / "reference.json",
               reference_json(trained.model, linear, test, features, scaler, args.reference_count))
    versions = environment_versions()
    metrics = {"results": [{**r, "rows": [{**row, "scores": dataclasses.asdict(row["scores"])}
                                          for row in r["rows"]]} for r in results]}
    if config.cell == "lstm":
        # The kernel engines' weight precisions apply to the network they run: the LSTM.
        engines = engines_section(split, features, scaler, trained.model, layers, test)
        metrics["engines"] = {**engines, "rows": [{**row, "scores": dataclasses.asdict(row["scores"])}
                                                  for row in engines["rows"]]}
    metrics["study_table2"] = STUDY_TABLE2
    write_json(staging / "metrics.json", metrics)
    (staging / "metrics.md").write_text(metrics_markdown(metrics), encoding="utf-8")
    (staging / "model-card.md").write_text(model_card(
        name=name, features=features, split=split, config=config, table_info=table_info,
        lstm=trained, metrics=metrics, versions=versions, seconds=seconds,
        trained_at=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    log(f"wrote {out}/ (saved_model, {ONNX_FILE}, model.json, scaler.json, linear.json, reference.json, "
        f"metrics.md, model-card.md)")


def environment_versions() -> dict:
    import keras
    import pandas
    import sklearn
    import tensorflow as tf

    return {"python": platform.python_version(), "tensorflow": tf.__version__, "keras": keras.__version__,
            "scikit-learn": sklearn.__version__, "numpy": np.__version__, "pandas": pandas.__version__,
            "platform": f"{platform.system()} {platform.machine()}", "cpus": os.cpu_count()}


def main(argv=None) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    args = parse_args(argv)
    try:
        run(args)
    except d.CanonicalTableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
