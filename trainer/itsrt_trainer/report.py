"""Markdown for people: the metrics table (like the study's Table 2) and the model card."""
from __future__ import annotations


def _table(rows: list[dict]) -> list[str]:
    lines = ["| model | features | MSE | MAPE (%) | R2 | epochs (best) |",
             "|---|---|---:|---:|---:|---:|"]
    for row in sorted(rows, key=lambda r: r["scores"]["mse"]):
        s = row["scores"]
        epochs = f"{row['epochs_run']} ({row['best_epoch']})" if "epochs_run" in row else ""
        lines.append(f"| {row['model']} | {row['features']} | {s['mse']:.2f} | {s['mape']:.2f} | "
                     f"{s['r2']:.4f} | {epochs} |")
    return lines


def metrics_markdown(metrics: dict) -> str:
    out = ["# Test scores", "",
           "Next 5-minute flow from the last 12 readings, all six stations pooled, scored on the "
           "original scale (veh/5 min) over the test windows. Sorted by MSE. MAPE leaves out test "
           "points whose true flow is 0 (it is undefined there).", ""]
    for result in metrics["results"]:
        split = result["split"]
        rows = result["rows"]
        n_mape = rows[0]["scores"]["n_mape"]
        out += [f"## Split `{split['name']}` ({split['description']})", "",
                f"{result['train_windows']} training windows (the latest 10% of them validate early "
                f"stopping), {result['test_windows']} test windows ({n_mape} with a nonzero flow for MAPE).",
                ""]
        out += _table(rows) + [""]
    if "engines" in metrics:
        out += engines_markdown(metrics["engines"], heading="##") + [""]
    out += ["## The study's Table 2, for comparison", "",
            "| model | MSE | MAPE (%) | R2 |", "|---|---:|---:|---:|"]
    for model, (mse, mape, r2) in metrics["study_table2"].items():
        out.append(f"| {model} | {mse:.2f} | {mape:.2f} | {r2:.4f} |")
    out.append("")
    return "\n".join(out)


def engines_markdown(engines: dict, heading: str) -> list[str]:
    """The shipped LSTM per JVM engine: the float32 reference and each kernel weight precision."""
    lines = [f"{heading} The shipped LSTM per JVM engine (split `{engines['split']}`, "
             f"{engines['test_windows']} test windows)", "",
             "The kernel engines store the weight matrices as float32, bfloat16 or int8 (one scale per output "
             "column) and compute in float32 (docs/inference.md); here each precision's weights run the same "
             "network (`itsrt_trainer.precision`). MSE change and largest difference are against the "
             "float32 reference (TensorFlow); the accuracy bound for a reduced precision is an MSE change of "
             "at most 0.5 %.", "",
             "| engine | weights | MSE | MAPE (%) | R2 | MSE change (%) | max diff (veh/5 min) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for row in engines["rows"]:
        s = row["scores"]
        change = f"{row['mse_change_percent']:+.3f}" if "mse_change_percent" in row else ""
        diff = f"{row['max_abs_diff']:.3f}" if "max_abs_diff" in row else ""
        lines.append(f"| {row['engine']} | {row['weights']} | {s['mse']:.2f} | {s['mape']:.2f} | {s['r2']:.4f} | "
                     f"{change} | {diff} |")
    return lines


def extra_card_lines(metrics: dict, split_name: str, features_label: str) -> list[str]:
    """Model-card lines on the naive forecast and on the JVM engines, from metrics.json."""
    lines = []
    for result in metrics["results"]:
        rows = result["rows"]
        lstm = rows[0] if rows and "epochs_run" in rows[0] else None  # the trained network comes first
        naive = next((r for r in rows if r["model"].startswith("Persistence")), None)
        if lstm is None or naive is None or lstm["features"] != features_label:
            continue
        lines.append(
            f"- Split `{result['split']['name']}`: persistence (next flow = last flow) MSE "
            f"{naive['scores']['mse']:.2f}, MAPE {naive['scores']['mape']:.2f} %, R2 {naive['scores']['r2']:.4f}; "
            f"the {lstm['model']} ({features_label}) MSE {lstm['scores']['mse']:.2f}, MAPE {lstm['scores']['mape']:.2f} %"
            + (" (the shipped model)." if result["split"]["name"] == split_name else
               " (trained on this split, not shipped)."))
    if lines:
        lines = ["## Against the naive forecast", "",
                 "Persistence needs no model: a model earns its cost by the margin it wins over it "
                 "(lower MSE is better; MAPE weighs quiet hours more).", ""] + lines + [""]
    if "engines" in metrics:
        lines += engines_markdown(metrics["engines"], heading="##") + [""]
    return lines


def model_card(*, name, features, split, config, table_info, lstm, metrics, versions, seconds,
               trained_at) -> str:
    shipped = next(r for r in metrics["results"]
                   if r["split"]["name"] == split.name and r["rows"][0]["features"] == "+".join(features))
    lstm_row = shipped["rows"][0]
    best_baseline = min((r for r in shipped["rows"][1:]), key=lambda r: r["scores"]["mse"], default=None)
    synthetic = any(s.startswith("synthetic") for s in table_info["sources"])
    lines = [
        f"# Model card: `{name}`", "",
        "Predicts the next 5-minute total flow (veh/5 min) of a PeMS detector station from its last "
        "12 readings (one hour). "
        + ("The architecture of the study (LSTM 256 -> LSTM 128 -> dropout " if config.cell == "lstm" else
           "The study's architecture with GRU cells instead of LSTM ones (GRU 256 -> GRU 128 -> dropout ")
        + f"{config.dropout[0]} -> Dense 64 ReLU -> dropout {config.dropout[1]} -> Dense 1 ReLU; the study's "
        "paper trained with dropout 0.2 and 0.4)"
        + ("" if config.architecture == "study" else f", reduced to the `{config.architecture}` sizes for tests")
        + ".", "",
        "## Data", "",
        f"- Table: `{table_info['path']}` (sha256 `{table_info['sha256'][:16]}...`), "
        f"{table_info['readings']} readings, {table_info['windows']} windows.",
        f"- Source: {', '.join(table_info['sources'])}"
        + (" - SYNTHETIC data, not for conclusions about traffic." if synthetic else "."),
        f"- Stations (VDS): {', '.join(str(s) for s in table_info['stations'])}.",
        f"- Span: {table_info['first']} to {table_info['last']} (UTC).", "",
        "## Inputs and output", "",
        f"- Features per reading: {', '.join(features)}; min-max scaled with `scaler.json` "
        "(fitted on the training windows only)."
        + (" Unknown speeds (flow-only sources) are filled with the training median speed before "
           "scaling." if "speed" in features else ""),
        f"- Signature `serve`: input `flows` float32 [batch, 12, {len(features)}], output `flow_next` "
        "float32 [batch, 1] on the scaled axis; the same as an ONNX graph in `model.onnx` (docs/model-bundle.md)"
        + ("; the JVM kernel engines do not run a GRU: engines `onnx` and `tensorflow` do." if config.cell == "gru"
           else "."), "",
        "## Split and training", "",
        f"- Split `{split.name}`: {split.description}.",
        f"- Adam (learning rate {config.learning_rate}), MSE loss, batch {config.batch_size}, up to "
        f"{config.epochs} epochs, early stopping with patience {config.patience} on the latest "
        f"{config.validation_fraction:.0%} of the training period, best weights restored"
        + (f"; learning rate halved after {config.plateau_patience} epochs without validation gain."
           if config.plateau_patience > 0 else "."),
        f"- Ran {lstm.epochs_run} epochs, best epoch {lstm.best_epoch} (validation MSE "
        f"{lstm.best_val_loss:.6f} scaled), {lstm.seconds:.0f} s.",
        f"- Seed {config.seed}; TensorFlow op determinism on.", "",
        "## Test scores (original scale)", "",
        f"- {lstm_row['model']}: MSE {lstm_row['scores']['mse']:.2f}, MAPE {lstm_row['scores']['mape']:.2f} %, "
        f"R2 {lstm_row['scores']['r2']:.4f}.",
    ]
    if best_baseline:
        lines.append(f"- Best baseline on the same split and features: {best_baseline['model']}, MSE "
                     f"{best_baseline['scores']['mse']:.2f}.")
    lines += ["- All splits and models: `metrics.md`.", ""]
    lines += extra_card_lines(metrics, split.name, "+".join(features))
    lines += ["## Versions", ""]
    lines += [f"- {k}: {v}" for k, v in versions.items()]
    lines += ["", f"Trained {trained_at}; whole run {seconds / 60:.1f} min.", ""]
    return "\n".join(lines)
