"""`Model.save_weights`/`load_weights` and `Model.summary()`.

Weight file format (`.weights.npz`, written with `numpy.savez`): one array per
variable of `model.weights`, in that order, stored under the key
`"{index:04d}/{variable name}"` (e.g. `0000/dense/kernel`), plus a string entry
`"__minixla_keras_weights__"` holding the format version `"1"`. Loading
matches by position (the names are for humans and error messages) and checks
every shape; `skip_mismatch=True` skips variables whose shape differs.
"""

from __future__ import annotations

import os

import numpy as np

FORMAT_KEY = "__minixla_keras_weights__"
FORMAT_VERSION = "1"


def _path(filepath) -> str:
    path = os.fspath(filepath)
    if path.endswith((".h5", ".keras")):
        raise ValueError(f"minixla saves weights as npz: the filename must end in `.weights.npz` (or `.npz`). "
                         f"Received: filepath={path}")
    return path if path.endswith(".npz") else path + ".weights.npz"


def save_weights(model, filepath, overwrite: bool = True) -> None:
    path = _path(filepath)
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} exists and overwrite=False")
    arrays = {f"{i:04d}/{v.name if hasattr(v, 'name') else i}": v.numpy() for i, v in enumerate(model.weights)}
    arrays[FORMAT_KEY] = np.array(FORMAT_VERSION)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def load_weights(model, filepath, skip_mismatch: bool = False) -> None:
    path = _path(filepath)
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such file or directory: '{path}'")
    with np.load(path, allow_pickle=False) as data:
        if FORMAT_KEY not in data.files:
            raise ValueError(f"{path} is not a minixla Keras weights file (no `{FORMAT_KEY}` entry).")
        keys = sorted(k for k in data.files if k != FORMAT_KEY)
        stored = [(k, data[k]) for k in keys]
    weights = model.weights
    if len(stored) != len(weights):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(weights)} "
                         f"weights, but the file holds {len(stored)}.")
    for (key, value), var in zip(stored, weights):
        if tuple(value.shape) != tuple(var.shape.as_list()):
            if skip_mismatch:
                continue
            raise ValueError(f"Weight {key.split('/', 1)[1]} has shape {tuple(value.shape)} in the file, but the "
                             f"model's variable {var.name} has shape {tuple(var.shape.as_list())}.")
        var.assign(value.astype(var.dtype.np))


def _human_bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.2f} {unit}"
    return f"{n:.2f} B"


def _shape_text(shape) -> str:
    if shape is None:
        return "?"
    if isinstance(shape, list):
        return ", ".join(_shape_text(s) for s in shape)
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def print_summary(model, print_fn=None) -> None:
    """Keras 3's table: layer (type), output shape, param count; then the totals."""
    emit = print_fn or print
    rows = [(f"{layer.name} ({type(layer).__name__})", _shape_text(layer._output_shape),
             f"{layer.count_params():,}") for layer in model.layers]
    widths = tuple(max([w] + [len(r[i]) + 2 for r in rows]) for i, w in enumerate((33, 24, 15)))

    def line(left, mid, right, fill):
        return left + mid.join(fill * w for w in widths) + right

    def row(cells):
        a, b, c = cells
        return f"│ {a:<{widths[0] - 2}} │ {b:<{widths[1] - 2}} │ {c:>{widths[2] - 2}} │"

    lines = [f'Model: "{model.name}"', line("┏", "┳", "┓", "━"),
             "┃ " + f"{'Layer (type)':<{widths[0] - 2}}" + " ┃ " + f"{'Output Shape':<{widths[1] - 2}}" + " ┃ "
             + f"{'Param #':>{widths[2] - 2}}" + " ┃", line("┡", "╇", "┩", "━")]
    for i, r in enumerate(rows):
        lines.append(row(r))
        if i != len(rows) - 1:
            lines.append(line("├", "┼", "┤", "─"))
    lines.append(line("└", "┴", "┘", "─"))
    trainable = sum(int(np.prod(v.shape.as_list())) for v in model.trainable_weights)
    total = model.count_params()
    nbytes = sum(v.numpy().nbytes for v in model.weights)
    tbytes = sum(v.numpy().nbytes for v in model.trainable_weights)
    lines += [f" Total params: {total:,} ({_human_bytes(nbytes)})",
              f" Trainable params: {trainable:,} ({_human_bytes(tbytes)})",
              f" Non-trainable params: {total - trainable:,} ({_human_bytes(nbytes - tbytes)})"]
    for text in lines:
        emit(text)
