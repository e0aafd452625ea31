"""Attention layers: MultiHeadAttention (Keras 3 weight layout) and dot-product Attention."""

from __future__ import annotations

import math

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn
from minixla.frontend.api.indexing import einsum
from minixla.frontend.keras import random as krandom
from minixla.frontend.keras.layers.base import Layer, _dims
from minixla.frontend.keras.symbolic import KerasTensor, call_symbolic


class MultiHeadAttention(Layer):
    def __init__(self, num_heads: int, key_dim: int, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, kernel_initializer="glorot_uniform", bias_initializer="zeros", seed=None,
                 **kw):
        for k in ("kernel_regularizer", "bias_regularizer", "kernel_constraint", "bias_constraint", "flash_attention"):
            kw.pop(k, None)
        super().__init__(**kw)
        if attention_axes is not None:
            raise NotImplementedError("MultiHeadAttention: only attention over the sequence axis is supported")
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim else self.key_dim
        self.dropout, self.use_bias, self._out_dim = float(dropout), use_bias, output_shape
        self.inits = (kernel_initializer, bias_initializer)
        self.seed_generator = krandom.SeedGenerator(seed, name=f"{self.name}/seed_generator")

    def build(self, query_shape, value_shape=None, key_shape=None) -> None:
        if isinstance(query_shape, list) and value_shape is None:
            query_shape, value_shape = query_shape[0], query_shape[1]
        value_shape = value_shape or query_shape
        key_shape = key_shape or value_shape
        h, k, v = self.num_heads, self.key_dim, self.value_dim
        q_dim, k_dim, v_dim = query_shape[-1], key_shape[-1], value_shape[-1]
        out = self._out_dim or q_dim
        kern, bias = self.inits

        def dense(name, shape, bias_shape):
            w = self.add_weight(shape, kern, name=f"{name}/kernel")
            b = self.add_weight(bias_shape, bias, name=f"{name}/bias") if self.use_bias else None
            return w, b

        self.query_kernel, self.query_bias = dense("query", (q_dim, h, k), (h, k))
        self.key_kernel, self.key_bias = dense("key", (k_dim, h, k), (h, k))
        self.value_kernel, self.value_bias = dense("value", (v_dim, h, v), (h, v))
        self.output_kernel, self.output_bias = dense("attention_output", (h, v, out), (out,))

    def __call__(self, query, value=None, key=None, **kwargs):
        if value is None and isinstance(query, (list, tuple)) and len(query) in (2, 3):
            query, value, key = query[0], query[1], (query[2] if len(query) > 2 else None)
        if value is None:
            raise ValueError("MultiHeadAttention needs `query` and `value`.")
        if any(isinstance(t, KerasTensor) for t in (query, value, key)):
            inputs = [query, value] + ([key] if key is not None else [])
            return call_symbolic(self, inputs, (), kwargs)
        return super().__call__([query, value] + ([key] if key is not None else []), **kwargs)

    def _build_for(self, inputs) -> None:
        self.build(*[tuple(_dims(t)) for t in inputs])

    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return mask[0] if isinstance(mask, (list, tuple)) else None

    def call(self, inputs, attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False, mask=None):
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value

        def project(x, w, b):
            y = einsum("abc,cde->abde", x, w)
            return api.add(y, b) if b is not None else y

        q = project(query, self.query_kernel, self.query_bias)
        k = project(key, self.key_kernel, self.key_bias)
        v = project(value, self.value_kernel, self.value_bias)
        q = api.multiply(q, np.float32(1.0 / math.sqrt(self.key_dim)))
        scores = einsum("aecd,abcd->acbe", k, q)
        mask = _padding_mask(mask)
        if use_causal_mask:
            causal = _causal(query, key)
            mask = causal if mask is None else api.logical_and(mask, causal)
        if attention_mask is not None:
            am = api.cast(api.expand_dims(attention_mask, 1), "bool")
            mask = am if mask is None else api.logical_and(mask, am)
        if mask is not None:
            scores = api.where(mask, scores, api.multiply(api.ones_like(scores), np.float32(-1e9)))
        probs = api_nn.softmax(scores, axis=-1)
        if training and self.dropout:
            probs = krandom.dropout(probs, self.dropout, self.seed_generator)
        out = einsum("acbe,aecd->abcd", probs, v)
        y = einsum("abcd,cde->abe", out, self.output_kernel)
        if self.output_bias is not None:
            y = api.add(y, self.output_bias)
        return (y, probs) if return_attention_scores else y


def _padding_mask(masks):
    """(batch, 1, Tq, Tk) from the query's and value's `_keras_mask`s (Keras' automatic attention mask)."""
    if not isinstance(masks, (list, tuple)):
        return None
    query_mask, value_mask = masks[0], masks[1] if len(masks) > 1 else None
    key_mask = masks[2] if len(masks) > 2 else None
    out = None
    if query_mask is not None:
        out = api.expand_dims(api.cast(query_mask, "bool"), -1)
    for m in (value_mask, key_mask):
        if m is not None:
            m = api.expand_dims(api.cast(m, "bool"), -2)
            out = m if out is None else api.logical_and(out, m)
    return None if out is None else api.expand_dims(out, 1)


def _causal(query, key):
    tq, tk = _dims(query)[1], _dims(key)[1]
    return np.tril(np.ones((tq, tk), bool))[None, None]


class Attention(Layer):
    """Luong-style dot-product attention: softmax(q k^T [* scale]) v."""

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", dropout=0.0, seed=None, **kw):
        super().__init__(**kw)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of {{'dot', 'concat'}}. "
                             f"Received: score_mode={score_mode}")
        self.use_scale, self.score_mode = use_scale, score_mode

    def build(self, input_shape) -> None:
        self.scale = self.add_weight((), "ones", name="scale") if self.use_scale else None
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight((), "ones", name="concat_score_weight")

    def call(self, inputs, mask=None, training=None, return_attention_scores=False, use_causal_mask=False):
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        if self.score_mode == "dot":
            scores = api.matmul(q, k, transpose_b=True)
            if self.scale is not None:
                scores = api.multiply(scores, self.scale)
        else:
            qe, ke = api.expand_dims(q, -2), api.expand_dims(k, -3)
            scale = self.scale if self.scale is not None else np.float32(1.0)
            scores = api.multiply(self.concat_score_weight,
                                  api.reduce_sum(api.tanh(api.multiply(scale, api.add(qe, ke))), -1))
        if use_causal_mask:
            causal = _causal(q, k)[0]
            scores = api.where(causal, scores, api.multiply(api.ones_like(scores), np.float32(-1e9)))
        weights = api_nn.softmax(scores, axis=-1)
        out = api.matmul(weights, v)
        return (out, weights) if return_attention_scores else out
