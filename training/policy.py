"""The trainable policy: a local causal LM with a LoRA adapter (peft), on CPU (fp32) or CUDA (bf16).

The same `TransformersBackend` that samples rollouts holds the model; training wraps its model
in a PEFT LoRA adapter in place, so sampling always uses the current policy and nothing is
copied. After every optimizer step the backend's cached ids / KV cache are dropped (`reset`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from training.types import Datum


@dataclass(frozen=True)
class LoRAConfig:
    """LoRA on the policy (SPEC §5). harness-1's train_rl.py uses rank 32; alpha = 2·rank is the
    common choice; all attention and MLP projections of Llama-style blocks (SmolLM2)."""

    rank: int = 32
    alpha: int = 64
    dropout: float = 0.0
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    # Recompute activations in the backward pass: a 2k-token datum otherwise keeps every layer's
    # attention and MLP activations (several GiB on CPU); costs roughly one extra forward.
    gradient_checkpointing: bool = True


def pick_device(device: str | None) -> tuple[str, str | None]:
    """(device, dtype): CUDA in bf16 when available and not overridden, else CPU in fp32."""
    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    return device, ("bfloat16" if device.startswith("cuda") else None)


def load_policy(
    model_path: str | Path | None = None,
    *,
    device: str | None = None,
    adapter: str | Path | None = None,
    lora: LoRAConfig = LoRAConfig(),
    max_new_tokens: int = 256,
    temperature: float = 1.0,
    seed: int = 0,
) -> Any:
    """A `TransformersBackend` whose model carries a trainable LoRA adapter.

    adapter: an adapter folder to continue from (e.g. the SFT output for RL); None = a fresh one.
    """
    try:
        from peft import LoraConfig, PeftModel, get_peft_model
    except ImportError as exc:
        raise ImportError("training needs peft: pip install 'context1[train]'") from exc
    from context1.backends.transformers_local import TransformersBackend

    device, dtype = pick_device(device)
    backend = TransformersBackend(
        model_path, device=device, dtype=dtype, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed
    )
    if lora.gradient_checkpointing:
        backend.model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if adapter is not None:
        if not (Path(adapter) / "adapter_config.json").is_file():
            raise FileNotFoundError(f"no PEFT adapter at {str(adapter)!r} (expected adapter_config.json)")
        model = PeftModel.from_pretrained(backend.model, str(adapter), is_trainable=True)
    else:
        cfg = LoraConfig(
            r=lora.rank,
            lora_alpha=lora.alpha,
            lora_dropout=lora.dropout,
            target_modules=list(lora.target_modules),
            task_type="CAUSAL_LM",
        )
        model = get_peft_model(backend.model, cfg)
    backend.model = model.to(device)
    backend.model.eval()
    return backend


def load_adapter_weights(model: Any, adapter: str | Path) -> None:
    """Copy an adapter folder's LoRA weights into an existing PEFT model (same LoRA shape)."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    weights = Path(adapter) / "adapter_model.safetensors"
    if not weights.is_file():
        raise FileNotFoundError(f"no adapter weights at {str(weights)!r}")
    set_peft_model_state_dict(model, load_file(str(weights)))


@contextmanager
def lora_merged_for_sampling(model: Any) -> Iterator[bool]:
    """Fold the LoRA deltas into the base weights while rollouts sample; unfold them after.

    Decoding one token at a time on a CPU is bound by per-op overhead, not FLOPs, and an unmerged
    adapter adds two small matmuls to each of SmolLM2's 210 adapted projections: merged, rollouts
    sample about 1.4x faster (benchmarks/README.md, issue 9). Only in fp32: unmerging subtracts the
    same delta again, which in fp32 moves a base weight by at most an ulp, but in bf16 by ~0.4 %
    per step, so bf16 models sample unmerged. The sampler's logprobs then differ from the
    trainer's by rounding only, which the CISPO ratio absorbs. Yields whether it merged.
    """
    merge = hasattr(model, "merge_adapter") and all(p.dtype == torch.float32 for p in model.parameters())
    if merge:
        model.merge_adapter()
    try:
        yield merge
    finally:
        if merge:
            model.unmerge_adapter()


def trainable_parameters(model: Any) -> list[torch.nn.Parameter]:
    return [p for p in model.parameters() if p.requires_grad]


def make_optimizer(model: Any, lr: float, betas: tuple[float, float] = (0.9, 0.95), weight_decay: float = 0.0) -> Any:
    """Adam(0.9, 0.95) over the LoRA parameters (SPEC §5 / harness-1)."""
    return torch.optim.AdamW(trainable_parameters(model), lr=lr, betas=betas, weight_decay=weight_decay)


def pad_datums(datums: Sequence[Datum], pad_id: int, device: str) -> dict[str, torch.Tensor]:
    """Right-padded batch tensors of datums: ids, attention, action mask, sampler logprobs, advantages."""
    T = max(len(d.input_ids_T) for d in datums)
    B = len(datums)
    ids_BT = torch.full((B, T), pad_id, dtype=torch.long)
    attn_BT = torch.zeros((B, T), dtype=torch.long)
    mask_BT = torch.zeros((B, T), dtype=torch.float32)
    old_BT = torch.zeros((B, T), dtype=torch.float32)
    for b, d in enumerate(datums):
        n = len(d.input_ids_T)
        ids_BT[b, :n] = torch.tensor(d.input_ids_T)
        attn_BT[b, :n] = 1
        mask_BT[b, :n] = torch.tensor(d.action_mask_T, dtype=torch.float32)
        old_BT[b, :n] = torch.tensor(d.sampler_logprobs_T, dtype=torch.float32)
    adv_B = torch.tensor([d.advantage for d in datums], dtype=torch.float32)
    return {
        k: v.to(device)
        for k, v in {"ids": ids_BT, "attn": attn_BT, "mask": mask_BT, "old": old_BT, "adv": adv_B}.items()
    }


def token_logprobs(
    model: Any,
    ids_BT: torch.Tensor,
    attn_BT: torch.Tensor,
    temperature: float = 1.0,
    mask_BT: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """log π(token_t | tokens_<t) and the entropy of that distribution, aligned with ids.  # (B, T)

    Position 0 has no prediction and gets 0 (it is never an action token: a prompt comes first).
    `temperature` must match the sampler's for the ratio to mean anything (rollouts use T=1).
    mask_BT: with one sequence (B = 1), only the masked positions get logits (`logits_to_keep`
    with indices): the LM head and softmax over a 49k vocabulary then run on the action tokens
    alone, not on the observations that make up most of a datum. Other positions get 0.
    """
    B, T = ids_BT.shape
    if mask_BT is not None and B == 1:
        keep = (mask_BT[0, 1:] > 0).nonzero().squeeze(-1)  # positions whose *next* token is an action
        lp_BT = torch.zeros(B, T, device=ids_BT.device)
        ent_BT = torch.zeros(B, T, device=ids_BT.device)
        if keep.numel() == 0:
            return lp_BT, ent_BT
        logits_KV = model(input_ids=ids_BT, attention_mask=attn_BT, logits_to_keep=keep).logits[0].float() / temperature
        logp_KV = torch.log_softmax(logits_KV, dim=-1)
        lp_K = logp_KV.gather(-1, ids_BT[0, keep + 1][:, None]).squeeze(-1)
        with torch.no_grad():
            ent_K = -(logp_KV.exp() * logp_KV).sum(-1)
        lp_BT = lp_BT.index_put((torch.zeros_like(keep), keep + 1), lp_K)
        ent_BT[0, keep + 1] = ent_K
        return lp_BT, ent_BT
    logits_BTV = model(input_ids=ids_BT, attention_mask=attn_BT).logits[:, :-1].float() / temperature
    logp_BTV = torch.log_softmax(logits_BTV, dim=-1)
    lp_BT = logp_BTV.gather(-1, ids_BT[:, 1:, None]).squeeze(-1)
    with torch.no_grad():
        ent_BT = -(logp_BTV.exp() * logp_BTV).sum(-1)
    zeros = torch.zeros_like(lp_BT[:, :1])
    return torch.cat([zeros, lp_BT], dim=1), torch.cat([zeros, ent_BT], dim=1)
