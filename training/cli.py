"""`context1 train sft | rl | eval`: a thin layer over training.sft / training.rl / training.rollouts.

Registered through the `context1.commands` entry point (`train = "training.cli:register"`).
Expected failures print one line and exit with status 2; a diverged run (NaN/inf loss) exits 1
after saying where its last good checkpoint is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from training.cli_common import EXIT_USAGE, CommandError, _clean_errors, _open, _tasks  # noqa: F401 (used below)

train_app = typer.Typer(
    help="Train the search agent (SFT on teacher trajectories, CISPO RL, evaluation) and a reranker.",
    no_args_is_help=True,
)


def _lora(rank: int, no_gradient_checkpointing: bool) -> Any:
    """The LoRA settings of `train sft` and `train rl`: alpha twice the rank (the usual scaling)."""
    from training.policy import LoRAConfig

    return LoRAConfig(rank=rank, alpha=2 * rank, gradient_checkpointing=not no_gradient_checkpointing)


def _agent_config(budget: int, max_turns: int, max_documents: int) -> Any:
    from training.rl import agent_config_for_small_model

    return agent_config_for_small_model(token_budget=budget, max_turns=max_turns, max_documents=max_documents)


Index = Annotated[Path, typer.Argument(metavar="INDEX", help="The index the tasks were generated over.")]
Tasks = Annotated[Path, typer.Option(help="Task file (JSONL of eval Task records, e.g. from `context1 datagen`).")]
Out = Annotated[Path, typer.Option(help="Run folder: checkpoint/, adapter/, metrics.jsonl, plots/.")]
Model = Annotated[str | None, typer.Option(help="Local model folder or .gguf.", show_default="bundled SmolLM2-135M")]
Device = Annotated[str | None, typer.Option(help="cpu, cuda, cuda:1.", show_default="cuda if available, else cpu")]
Budget = Annotated[int, typer.Option(help="Harness token budget (fit the model's context).", min=512)]
Turns = Annotated[int, typer.Option(help="Most turns per rollout.", min=1)]
Docs = Annotated[int, typer.Option(help="Most documents per answer.", min=1)]
Limit = Annotated[int | None, typer.Option(help="Use only the first N tasks.", min=1)]
NoProgress = Annotated[bool, typer.Option("--no-progress", help="Hide progress bars.")]
NoCheckpointing = Annotated[
    bool,
    typer.Option(
        "--no-gradient-checkpointing",
        help="Keep activations instead of recomputing them: ~25% faster steps, ~2x the memory per datum.",
    ),
]
Resume = Annotated[bool, typer.Option("--resume", help="Continue from OUT's last checkpoint (refused when OUT's run used other flags, tasks or version).")]


Workers = Annotated[
    int, typer.Option(min=0, help="Run the rollouts on N Ray actors (pip install 'context1[ray]'; needs --index-url).")
]
RayAddress = Annotated[
    str | None, typer.Option(help="An existing Ray cluster (host:6379 or ray://host:10001); none starts a local Ray.")
]
IndexURL = Annotated[
    list[str] | None,
    typer.Option(help="A `context1 serve INDEX` server the Ray actors search (e.g. http://10.0.0.5:8765); repeat it "
                 "for several servers of the same index."),
]
IndexKeyFile = Annotated[
    Path | None,
    typer.Option("--api-key-file", help="File holding the index server's API key, given to every Ray worker. "
                 "Default: the CONTEXT1_API_KEY variable."),
]
BatchOpt = Annotated[int, typer.Option(min=1, help="Episodes advanced in lockstep (one batched generate per turn).")]


def _pool(workers: int, ray_address: str | None, index_url: list[str] | None, spec: dict[str, Any], agent_config: Any,
          key_file: Path | None = None) -> Any:
    """A RolloutPool for --workers N, or None for the single-process path."""
    import os

    from context1.interfaces.guard import API_KEY_ENV, load_api_key
    from training.distributed import SERVE_HINT

    if workers == 0:
        if ray_address is not None:
            raise CommandError("--ray-address needs --workers N (the number of Ray actors)")
        return None
    if not index_url:
        raise CommandError(f"--workers needs --index-url: {SERVE_HINT}")
    from training.distributed import RolloutPool

    key = load_api_key(os.environ.get(API_KEY_ENV), key_file)  # an unreadable key file: a clear error
    try:
        return RolloutPool(index_url, spec, agent_config, workers=workers, ray_address=ray_address, api_key=key)
    except (ConnectionError, PermissionError) as exc:
        raise CommandError(str(exc)) from exc


def _learned(corpus: Any, policy: Path | None, temperature: float, flag: str) -> Any:
    """The learned search policy backend from a `context1 train policy` folder (checked at open)."""
    from context1.backends import make_backend

    if policy is None:
        raise CommandError(f"{flag} needs --policy DIR, a folder written by `context1 train policy`")
    return make_backend("learned", corpus=corpus, policy=policy, temperature=temperature)


@train_app.command("sft")
def sft_command(
    index: Index,
    tasks: Tasks,
    out: Out,
    teacher: Annotated[
        str,
        typer.Option(
            help="Teacher backend: iterative (LLM-free, hand-tuned), learned (--policy), openai, or transformers "
            "(--model, --teacher-adapter)."
        ),
    ] = "iterative",
    best_of: Annotated[
        int,
        typer.Option(
            min=1,
            help="Rejection sampling: N teacher rollouts per task, keep the best by RL reward (then SPEC §5 selection).",
        ),
    ] = 1,
    teacher_adapter: Annotated[
        Path | None, typer.Option(help="Adapter for --teacher transformers (e.g. an earlier SFT/RL run's OUT/adapter).")
    ] = None,
    teacher_temperature: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Sampling temperature of a transformers teacher, and of a learned one under --best-of N > 1 "
            "(at N = 1 the learned teacher is greedy).",
        ),
    ] = 1.0,
    policy: Annotated[
        Path | None, typer.Option(help="Learned search policy folder (`context1 train policy`) for --teacher learned.")
    ] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible URL of the teacher.")] = None,
    teacher_model: Annotated[str | None, typer.Option(help="Teacher model name (openai).")] = None,
    teacher_trajectories: Annotated[
        Path | None, typer.Option(help="Reuse teacher trajectories (JSONL) instead of generating them.")
    ] = None,
    model: Model = None,
    device: Device = None,
    epochs: Annotated[int, typer.Option(help="Passes over the SFT examples.", min=1)] = 3,
    lr: Annotated[float, typer.Option(help="AdamW learning rate of the LoRA weights.")] = 2e-4,
    batch_size: Annotated[int, typer.Option(help="Examples per optimiser step.", min=1)] = 4,
    max_steps: Annotated[int | None, typer.Option(help="Stop after this many optimiser steps.", min=1)] = None,
    lora_rank: Annotated[int, typer.Option(help="LoRA rank.", min=1)] = 32,
    checkpoint_every: Annotated[int, typer.Option(min=1, help="Save a resumable checkpoint every N steps.")] = 10,
    no_gradient_checkpointing: NoCheckpointing = False,
    budget: Budget = 2_048,
    max_turns: Turns = 3,
    max_documents: Docs = 3,
    limit: Limit = None,
    seed: Annotated[int, typer.Option(help="Seed of sampling, shuffling and initialisation.")] = 0,
    resume: Resume = False,
    no_progress: NoProgress = False,
) -> None:
    """SFT (LoRA, loss on action tokens) on teacher trajectories run through the harness, selected by SPEC §5."""
    with _clean_errors():
        from context1 import load_trajectories
        from training.sft import SFTConfig, generate_teacher_trajectories, select_teacher_trajectories, train_sft

        task_list = _tasks(tasks, limit)
        cfg_agent = _agent_config(budget, max_turns, max_documents)
        out.mkdir(parents=True, exist_ok=True)
        if teacher_trajectories is not None:
            trajs = load_trajectories(teacher_trajectories)
        else:
            from context1.backends import make_backend

            corpus = _open(index)
            if teacher == "iterative":
                backend = make_backend("iterative", corpus=corpus)
            elif teacher == "learned":  # each of the N rollouts samples with its own seed; N = 1 takes the best
                backend = _learned(corpus, policy, teacher_temperature if best_of > 1 else 0.0, "--teacher learned")
            elif teacher == "openai":
                if not base_url:
                    raise CommandError("--teacher openai needs --base-url")
                backend = make_backend("openai", base_url=base_url, model=teacher_model)
            elif teacher == "transformers":
                from training.policy import pick_device

                dev, dtype = pick_device(device)
                backend = make_backend("transformers", model=model, device=dev, dtype=dtype, adapter=teacher_adapter,
                                       temperature=teacher_temperature, seed=seed)
            else:
                raise CommandError(f"unknown teacher {teacher!r}; choose iterative, learned, openai or transformers")
            trajs = generate_teacher_trajectories(
                corpus, task_list, backend, cfg_agent, out / "teacher.jsonl", seed=seed, progress=not no_progress,
                rollouts_per_task=best_of,
            )
        if best_of > 1:
            from training.sft import keep_best_by_reward

            n_sampled = len(trajs)
            trajs, rewards = keep_best_by_reward(trajs, task_list)
            mean_r = sum(rewards) / len(rewards) if rewards else float("nan")
            typer.echo(f"best-of-{best_of}: kept {len(trajs)} of {n_sampled} trajectories (mean reward {mean_r:.3f})",
                       err=True)
        config = SFTConfig(lr=lr, epochs=epochs, batch_size=batch_size, max_steps=max_steps,
                           checkpoint_every=checkpoint_every, lora=_lora(lora_rank, no_gradient_checkpointing), seed=seed)
        kept, selection = select_teacher_trajectories(trajs, task_list, config.selection)
        typer.echo(f"selection: kept {len(kept)} of {len(trajs)} teacher trajectories {selection.counts()}", err=True)
        result = train_sft(kept, out, config, model_path=model, device=device, resume=resume, progress=not no_progress)
        typer.echo(f"SFT: {result.steps} steps on {result.datums} datums; adapter in {result.out / 'adapter'}")


@train_app.command("rl")
def rl_command(
    index: Index,
    tasks: Tasks,
    out: Out,
    init_adapter: Annotated[
        Path | None, typer.Option(help="Adapter to start from (the SFT run's OUT/adapter).")
    ] = None,
    model: Model = None,
    device: Device = None,
    steps: Annotated[int, typer.Option(help="RL steps.", min=1)] = 300,
    epochs: Annotated[int, typer.Option(min=1, help="β anneals 4 → 2 across epochs.")] = 5,
    tasks_per_step: Annotated[int, typer.Option(help="Tasks sampled per RL step.", min=1)] = 128,
    group_size: Annotated[int, typer.Option(help="Rollouts per task (the group whose rewards set the advantages).", min=2)] = 8,
    substeps: Annotated[int, typer.Option(help="Optimiser substeps per RL step.", min=1)] = 4,
    lr: Annotated[float, typer.Option(help="AdamW learning rate of the LoRA weights.")] = 1e-5,
    scale_std: Annotated[bool, typer.Option("--scale-std", help="Divide advantages by the group std.")] = False,
    max_new_tokens: Annotated[int, typer.Option(help="Most tokens the policy generates per turn.", min=1)] = 512,
    lora_rank: Annotated[int, typer.Option(help="LoRA rank.", min=1)] = 32,
    no_gradient_checkpointing: NoCheckpointing = False,
    budget: Budget = 2_048,
    max_turns: Turns = 3,
    max_documents: Docs = 3,
    limit: Limit = None,
    seed: Annotated[int, typer.Option(help="Seed of sampling, shuffling and initialisation.")] = 0,
    sampler: Annotated[
        str,
        typer.Option(
            help="Who samples the rollouts: the policy itself (transformers) or an in-process vLLM engine "
            "(vllm: a GPU, pip install 'context1[gpu]', --model a HF folder; only the adapter is reloaded after each update)."
        ),
    ] = "transformers",
    sampler_gpu_memory: Annotated[
        float, typer.Option(help="vLLM's gpu_memory_utilization (the trainer shares the GPU).", min=0.05, max=0.95)
    ] = 0.3,
    rollout_mode: Annotated[
        str, typer.Option(help="batched (every episode of a step in lockstep) or sequential (one after the other).")
    ] = "batched",
    workers: Workers = 0,
    ray_address: RayAddress = None,
    index_url: IndexURL = None,
    api_key_file: IndexKeyFile = None,
    save_rollouts: Annotated[
        bool, typer.Option("--save-rollouts", help="Append every step's rollouts (trajectories, rewards) to OUT/rollouts.jsonl.")
    ] = False,
    resume: Resume = False,
    no_progress: NoProgress = False,
) -> None:
    """CISPO RL with rollouts through context1 episodes (sampled by the policy, or by vLLM)."""
    with _clean_errors():
        from training.rl import RLConfig, train_rl

        if sampler not in ("transformers", "vllm"):
            raise CommandError(f"unknown sampler {sampler!r}; choose transformers or vllm")
        if sampler == "vllm" and (model is None or not Path(model).is_dir()):
            raise CommandError("--sampler vllm needs --model, a local Hugging Face model folder (its LoRA support does not cover the bundled GGUF)")
        task_list = _tasks(tasks, limit)
        corpus = _open(index)
        config = RLConfig(steps=steps, epochs=epochs, tasks_per_step=tasks_per_step, group_size=group_size,
                          substeps=substeps, lr=lr, scale_advantages_by_std=scale_std, max_new_tokens=max_new_tokens,
                          lora=_lora(lora_rank, no_gradient_checkpointing), rollout_mode=rollout_mode, seed=seed)
        if rollout_mode not in ("batched", "sequential"):
            raise CommandError(f"unknown rollout mode {rollout_mode!r}; choose batched or sequential")
        if workers and sampler == "vllm":
            raise CommandError("--workers runs the rollouts on Ray actors with transformers; drop --sampler vllm")
        agent_cfg = _agent_config(budget, max_turns, max_documents)
        spec = {"kind": "transformers", "model": model, "max_new_tokens": max_new_tokens, "temperature": 1.0}
        pool = _pool(workers, ray_address, index_url, spec, agent_cfg, api_key_file)
        rollout_sampler = None
        if sampler == "vllm":
            from context1.backends.vllm_backend import VLLMBackend

            engine = {"enable_lora": True, "max_lora_rank": lora_rank, "gpu_memory_utilization": sampler_gpu_memory}
            rollout_sampler = VLLMBackend(
                str(model), max_new_tokens=max_new_tokens, temperature=1.0, seed=seed, engine_kwargs=engine
            )
        result = train_rl(
            corpus,
            task_list,
            out,
            config,
            agent_config=agent_cfg,
            model_path=model,
            init_adapter=init_adapter,
            device=device,
            resume=resume,
            progress=not no_progress,
            sampler=rollout_sampler,
            pool=pool,
            save_rollouts=save_rollouts,
        )
        if pool is not None:
            typer.echo(f"Ray workers: {pool.stats}", err=True)
            pool.close()
        last = result.metrics[-1] if result.metrics else {}
        typer.echo(f"RL: {result.steps} steps; last reward {last.get('reward')}; adapter in {result.out / 'adapter'}")


@train_app.command("eval")
def eval_command(
    index: Index,
    tasks: Tasks,
    adapter: Annotated[Path | None, typer.Option(help="Adapter folder; none = the base model.")] = None,
    backend: Annotated[
        str, typer.Option(help="transformers (the policy), iterative (the hand-tuned teacher) or learned (--policy).")
    ] = "transformers",
    policy: Annotated[
        Path | None, typer.Option(help="Learned search policy folder (`context1 train policy`) for --backend learned.")
    ] = None,
    model: Model = None,
    device: Device = None,
    max_new_tokens: Annotated[int, typer.Option(help="Most tokens the policy generates per turn.", min=1)] = 512,
    temperature: Annotated[float, typer.Option(help="Sampling temperature (0: greedy).", min=0.0)] = 0.0,
    budget: Budget = 2_048,
    max_turns: Turns = 3,
    max_documents: Docs = 3,
    limit: Limit = None,
    out: Annotated[Path | None, typer.Option(help="Per-task JSONL (scores + trajectory).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of sampling.")] = 0,
    batch: BatchOpt = 8,
    workers: Workers = 0,
    ray_address: RayAddress = None,
    index_url: IndexURL = None,
    api_key_file: IndexKeyFile = None,
    no_progress: NoProgress = False,
) -> None:
    """Valid tool-call rate, turns, trajectory recall, output recall and final-answer found of a policy."""
    with _clean_errors():
        from context1.backends import make_backend
        from eval.runners import corpus_texts
        from training.policy import pick_device
        from training.rollouts import evaluate_policy

        task_list = _tasks(tasks, limit)
        corpus = _open(index)
        if backend == "iterative":
            chosen = make_backend("iterative", corpus=corpus)
        elif backend == "learned":
            chosen = _learned(corpus, policy, temperature, "--backend learned")
        elif backend == "transformers":
            dev, dtype = pick_device(device)
            chosen = make_backend(
                "transformers",
                model=model,
                device=dev,
                dtype=dtype,
                adapter=adapter,
                max_new_tokens=max_new_tokens,
                temperature=temperature,
                seed=seed,
            )
        else:
            raise CommandError(f"unknown backend {backend!r}; choose transformers, iterative or learned")
        agent_cfg = _agent_config(budget, max_turns, max_documents)
        spec: dict[str, Any] = {"kind": backend}
        if backend == "learned":
            spec.update(policy=str(policy), temperature=temperature)
        if backend == "transformers":
            spec.update(model=model, adapter=adapter, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed)
        pool = _pool(workers, ray_address, index_url, spec, agent_cfg, api_key_file)
        try:
            summary = evaluate_policy(
                corpus,
                chosen,
                task_list,
                agent_cfg,
                seed=seed,
                doc_text=corpus_texts(corpus),
                out=out,
                progress=not no_progress,
                batch=batch,
                pool=pool,
            )
        finally:
            if pool is not None:
                typer.echo(f"Ray workers: {pool.stats}", err=True)
                pool.close()
        typer.echo(json.dumps(summary, indent=2))


def register(app: typer.Typer) -> None:
    """Add the `train` command group (sft, rl, eval, reranker, policy, writer) to the context1 command line."""
    from training import cli_reranker, cli_search_policy, cli_writer

    cli_reranker.register(train_app)
    cli_search_policy.register(train_app)
    cli_writer.register(train_app)
    app.add_typer(train_app, name="train")
