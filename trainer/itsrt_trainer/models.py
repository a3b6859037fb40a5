"""The study's LSTM, the four baselines it was compared with, and the scores of Table 2."""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from .data import WINDOW

# The study's architecture (its Table 3): LSTM(256, seq) -> LSTM(128) -> dropout 0.2 ->
# Dense(64, ReLU) -> dropout 0.4 -> Dense(1, ReLU). "tiny" has the same shape, smaller, for tests.
# The dropout rates are training settings only (dropout is the identity at inference), so the
# served model is the same whatever they are; the study's public code used 0.25 for the second.
ARCHITECTURES = {
    "study": (256, 128, 64),
    "tiny": (16, 8, 8),
}
# The recurrent cell of both recurrent layers: the study's LSTM, or a GRU of the same shape (a
# network the JVM kernel does not run: the onnx and tensorflow engines do).
CELLS = ("lstm", "gru")
NETWORK_LABELS = {"lstm": "LSTM", "gru": "GRU"}


@dataclasses.dataclass(frozen=True)
class TrainingConfig:
    architecture: str = "study"
    cell: str = "lstm"
    epochs: int = 100
    batch_size: int = 128
    learning_rate: float = 1e-3
    patience: int = 5
    plateau_patience: int = 0  # > 0: halve the learning rate after this many epochs without gain
    dropout: tuple[float, float] = (0.2, 0.4)  # after the second recurrent layer, after Dense(64)
    validation_fraction: float = 0.1  # the latest part of the training period
    seed: int = 42


def build_network(n_features: int, architecture: str = "study", dropout: tuple[float, float] = (0.2, 0.4),
                  cell: str = "lstm"):
    import keras

    recurrent = {"lstm": keras.layers.LSTM, "gru": keras.layers.GRU}[cell]
    first, second, dense = ARCHITECTURES[architecture]
    inputs = keras.Input(shape=(WINDOW, n_features), name="flows", dtype="float32")
    x = recurrent(first, activation="tanh", return_sequences=True, name=f"{cell}_1")(inputs)
    x = recurrent(second, activation="tanh", name=f"{cell}_2")(x)
    x = keras.layers.Dropout(dropout[0], name="dropout_1")(x)
    x = keras.layers.Dense(dense, activation="relu", name="dense_1")(x)
    x = keras.layers.Dropout(dropout[1], name="dropout_2")(x)
    outputs = keras.layers.Dense(1, activation="relu", name="flow_next")(x)
    return keras.Model(inputs, outputs, name=f"{cell}_flow")


def layer_descriptions(architecture: str, cell: str = "lstm") -> list[dict]:
    first, second, dense = ARCHITECTURES[architecture]
    return [
        {"name": f"{cell}_1", "type": cell, "units": first, "activation": "tanh", "return_sequences": True},
        {"name": f"{cell}_2", "type": cell, "units": second, "activation": "tanh", "return_sequences": False},
        {"name": "dense_1", "type": "dense", "units": dense, "activation": "relu"},
        {"name": "flow_next", "type": "dense", "units": 1, "activation": "relu"},
    ]


@dataclasses.dataclass
class NetworkResult:
    model: object
    epochs_run: int
    best_epoch: int
    best_val_loss: float
    seconds: float
    history: dict


def train_network(x: np.ndarray, y: np.ndarray, target_time: np.ndarray, config: TrainingConfig,
                  log=print) -> NetworkResult:
    """Adam + MSE; early stopping on the latest part of the training period, best weights kept.

    x: [n, 12, F] scaled inputs, y: [n] scaled targets, target_time: [n] when each target is.
    """
    import keras
    import tensorflow as tf

    keras.utils.set_random_seed(config.seed)
    tf.config.experimental.enable_op_determinism()
    # Validation is the latest slice of the training period, so early stopping never peeks at
    # the test period and is judged on data later than what it fits, as the test set is.
    n_val = max(1, int(round(config.validation_fraction * len(x))))
    order = np.argsort(target_time, kind="stable")
    fit_idx, val_idx = np.sort(order[:-n_val]), np.sort(order[-n_val:])
    model = build_network(x.shape[-1], config.architecture, config.dropout, config.cell)
    model.compile(optimizer=keras.optimizers.Adam(config.learning_rate), loss="mse")
    stopper = keras.callbacks.EarlyStopping(monitor="val_loss", patience=config.patience,
                                            restore_best_weights=True)
    callbacks = [stopper]
    if config.plateau_patience > 0:
        callbacks.append(keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5,
                                                           patience=config.plateau_patience))
    progress = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: log(
        f"  epoch {epoch + 1:3d}/{config.epochs}: loss {logs['loss']:.6f}  val_loss {logs['val_loss']:.6f}"))
    started = time.monotonic()
    history = model.fit(x[fit_idx], y[fit_idx], validation_data=(x[val_idx], y[val_idx]),
                        epochs=config.epochs, batch_size=config.batch_size, shuffle=True,
                        callbacks=callbacks + [progress], verbose=0)
    val_losses = history.history["val_loss"]
    best = int(np.argmin(val_losses))
    return NetworkResult(model, len(val_losses), best + 1, float(val_losses[best]),
                      time.monotonic() - started, history.history)


PERSISTENCE = "Persistence (next = last)"


def persistence(flow_windows: np.ndarray) -> np.ndarray:
    """The naive forecast: the next interval's flow equals the last reading's. [n, 12] -> [n]."""
    return np.asarray(flow_windows, dtype=np.float64)[:, -1]


def baseline_models(seed: int) -> dict:
    """The study's comparison set, scikit-learn defaults unless a reason is noted."""
    from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.tree import DecisionTreeRegressor

    return {
        "Linear regression": LinearRegression(),
        # 100 trees as in scikit-learn's default; n_jobs=-1 only shortens training.
        "Random forest": RandomForestRegressor(n_estimators=100, n_jobs=-1, random_state=seed),
        "Gradient boosting": GradientBoostingRegressor(random_state=seed),
        "Decision tree": DecisionTreeRegressor(random_state=seed),
    }


@dataclasses.dataclass(frozen=True)
class Scores:
    mse: float
    mape: float
    r2: float
    n: int
    n_mape: int  # MAPE is undefined where the true flow is 0; those points are left out of it


def score(y_true: np.ndarray, y_pred: np.ndarray) -> Scores:
    """MSE, MAPE (%) and R2 on the original scale (veh/5 min), as in the study's Table 2."""
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    error = y_pred - y_true
    mse = float(np.mean(error ** 2))
    nonzero = y_true != 0
    mape = float(np.mean(np.abs(error[nonzero] / y_true[nonzero])) * 100)
    r2 = float(1 - np.sum(error ** 2) / np.sum((y_true - y_true.mean()) ** 2))
    return Scores(mse, mape, r2, len(y_true), int(nonzero.sum()))
