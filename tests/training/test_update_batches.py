"""The CISPO update in micro-batches (several datums per forward pass, the GPU default) moves the
adapter exactly as one datum per pass does: padding and the loss normaliser change nothing."""

from __future__ import annotations

import copy
import random

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
peft = pytest.importorskip("peft")

from training.rl import RLConfig, cispo_update, micro_batches  # noqa: E402
from training.types import Datum  # noqa: E402


def test_micro_batches_stay_within_the_padded_budget_and_keep_every_datum() -> None:
    lengths = [50, 7, 300, 12, 60, 61, 9, 1000]
    groups = micro_batches(lengths, 128)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    for g in groups:
        assert len(g) == 1 or len(g) * max(lengths[i] for i in g) <= 128
    assert [7, 9, 12] in [sorted(lengths[i] for i in g) for g in groups]  # short ones share a pass
    assert micro_batches(lengths, 0) == [[i] for i in range(len(lengths))]


def _tiny_policy():
    config = transformers.LlamaConfig(vocab_size=97, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256)
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(config)
    lora = peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "up_proj"], task_type="CAUSAL_LM")
    model = peft.get_peft_model(model, lora)
    with torch.no_grad():  # a fresh adapter has B = 0; move it so that both LoRA factors get gradients
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.05)
    return model


def _datums(n: int) -> list[Datum]:
    rng = random.Random(1)
    out = []
    for k in range(n):
        prompt, actions = rng.randint(5, 40), rng.randint(1, 12)
        ids = tuple(rng.randrange(1, 97) for _ in range(prompt + actions))
        old = tuple([0.0] * prompt + [-rng.uniform(1.0, 6.0) for _ in range(actions)])
        out.append(Datum(ids, tuple([0] * prompt + [1] * actions), old, advantage=1.0 if k % 2 else -0.7))
    return out


def test_a_batched_update_equals_one_datum_per_pass(tmp_path) -> None:
    reference = _tiny_policy()
    batched = copy.deepcopy(reference)
    before = {n: p.detach().clone() for n, p in reference.named_parameters() if p.requires_grad}
    datums = _datums(9)
    results = []
    for model, budget in ((reference, 0), (batched, 96)):
        optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
        cfg = RLConfig(substeps=2, lr=1e-2, update_batch_tokens=budget)
        results.append(cispo_update(model, optimizer, datums, cfg, pad_id=0, device="cpu", step=1, out=tmp_path))
    assert len(micro_batches([len(d.input_ids_T) for d in datums], 96)) < len(datums)  # it did batch
    assert results[0]["loss"] == pytest.approx(results[1]["loss"], rel=1e-4, abs=1e-6)
    assert results[0]["action_tokens"] == results[1]["action_tokens"]
    for (name, a), (_, b) in zip(reference.named_parameters(), batched.named_parameters(), strict=True):
        if a.requires_grad:
            torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5, msg=name)
    assert any(not torch.equal(p, before[n]) for n, p in reference.named_parameters() if n in before)
