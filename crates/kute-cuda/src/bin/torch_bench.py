# PyTorch's side of `kute-cuda bench` and `kute-cuda gemm`, timed as kute-cuda
# times its kernels: warm-up calls, then 5 rounds of `reps` calls between CUDA
# events, the median round's mean.
#
#   copy SIZES DTYPES REPS: one JSON line per (size, dtype) with the
#     milliseconds per call of `y.copy_(x)` and of `x.t().contiguous()`.
#   scaled REPS SHAPE:DTYPE:OUT_DTYPE...: one JSON line per case with
#     torch._scaled_mm's milliseconds (8-bit A (M,K) and B (N,K), per-tensor
#     scales, C of OUT_DTYPE), with and without use_fast_accum, or the
#     error it raised.
#   attention REPS B,HQ,HKV,LQ,LK,D,CAUSAL,DTYPE...: one JSON line per case
#     with the milliseconds of torch.nn.functional.scaled_dot_product_attention
#     under the flash and the cuDNN backends (Q, K, V stored (B, S, H, D) and
#     viewed (B, H, S, D); grouped heads by enable_gqa, else K and V repeated
#     before timing; a causal mask aligned at the end, as kute's, where
#     LQ != LK), each backend's largest absolute error against the float32
#     answer on 32 query rows of every head, or the error it raised.
#   gemm REPS SHAPE:DTYPE:PREFIX...: one JSON line per case (SHAPE MxNxK, or MxNxKxB for a batch) with
#     torch.matmul's milliseconds (A @ B.t(), A (M,K), B (N,K) in DTYPE) and,
#     when PREFIX names kute's PREFIX_{a,b,c}.bin, kute's maximum relative
#     error against torch.matmul(A.float(), B.float().t()).
import json, sys
import torch


def timed(fn, reps, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(5):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / reps)
    times.sort()
    return times[len(times) // 2]


def about(out):
    out["gpu"] = torch.cuda.get_device_name(0)
    out["torch"] = torch.__version__
    print(json.dumps(out))


def copy(sizes, dtypes, reps):
    for n in [int(s) for s in sizes.split(",")]:
        for name in dtypes.split(","):
            dt = getattr(torch, name)
            x = torch.rand(n, n, device="cuda").to(dt)
            y = torch.empty_like(x)
            copy_ms = timed(lambda: y.copy_(x), int(reps), 3)
            assert torch.equal(y, x)
            transpose_ms = timed(lambda: x.t().contiguous(), int(reps), 3)
            assert torch.equal(x.t().contiguous(), x.t())
            about({"size": n, "dtype": name, "copy_ms": copy_ms, "transpose_ms": transpose_ms})
            del x, y
            torch.cuda.empty_cache()


def gemm(reps, *cases):
    import numpy as np

    for case in cases:
        shape, name, prefix = case.split(":")
        m, n, k, *batch = (int(x) for x in shape.split("x"))
        dt = getattr(torch, name)
        out = {"shape": shape, "dtype": name}
        if batch:
            # a batch: torch.matmul of (B, M, K) by (B, K, N)
            a = torch.rand(batch[0], m, k, device="cuda").to(dt)
            b = torch.rand(batch[0], n, k, device="cuda").to(dt)
            out["matmul_ms"] = timed(lambda: torch.matmul(a, b.transpose(1, 2)), int(reps), 2)
            about(out)
            del a, b
            torch.cuda.empty_cache()
            continue
        if prefix:
            a = torch.from_numpy(np.fromfile(prefix + "_a.bin", dtype=np.int16).reshape(m, k)).view(dt).cuda()
            b = torch.from_numpy(np.fromfile(prefix + "_b.bin", dtype=np.int16).reshape(n, k)).view(dt).cuda()
            c = torch.from_numpy(np.fromfile(prefix + "_c.bin", dtype=np.float32).reshape(m, n)).cuda()
            ref = torch.matmul(a.float(), b.float().t())
            out["max_rel_err"] = float(((c - ref).abs() / ref.abs().clamp_min(1e-6)).max())
        else:
            a = torch.rand(m, k, device="cuda").to(dt)
            b = torch.rand(n, k, device="cuda").to(dt)
        out["matmul_ms"] = timed(lambda: torch.matmul(a, b.t()), int(reps), 2)
        about(out)
        del a, b
        torch.cuda.empty_cache()


def epilogue(reps, shape, name):
    # activation(A @ B.t() + bias), unfused: three kernels
    m, n, k = (int(x) for x in shape.split("x"))
    dt = getattr(torch, name)
    a = torch.rand(m, k, device="cuda").to(dt)
    b = torch.rand(n, k, device="cuda").to(dt)
    bias = torch.rand(n, device="cuda").to(dt)
    f = torch.nn.functional
    matmul_ms = timed(lambda: torch.matmul(a, b.t()), int(reps), 2)
    for act, g in [("none", lambda x: x), ("relu", f.relu), ("gelu", f.gelu), ("silu", f.silu)]:
        ms = timed(lambda: g(torch.matmul(a, b.t()) + bias), int(reps), 2)
        about({"shape": shape, "dtype": name, "activation": act, "unfused_ms": ms, "matmul_ms": matmul_ms})


def scaled(reps, *cases):
    # torch._scaled_mm (cuBLASLt's FP8 GEMM): A (M,K) row-major, B (N,K)
    # row-major passed as B.t() (column-major, as it requires), per-tensor
    # scales, the output type named
    for case in cases:
        shape, name, out_name = case.split(":")
        m, n, k = (int(x) for x in shape.split("x"))
        dt, out_dt = getattr(torch, name), getattr(torch, out_name)
        a = (torch.rand(m, k, device="cuda") * 4 - 2).to(dt)
        b = (torch.rand(n, k, device="cuda") * 4 - 2).to(dt)
        sa = torch.tensor(0.5, device="cuda")
        sb = torch.tensor(0.25, device="cuda")
        out = {"shape": shape, "dtype": name, "out_dtype": out_name}
        try:
            f = lambda: torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, out_dtype=out_dt)
            out["scaled_mm_ms"] = timed(f, int(reps), 2)
            # the tensor cores' own accumulation throughout, as kute's kernel
            g = lambda: torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, out_dtype=out_dt, use_fast_accum=True)
            out["fast_accum_ms"] = timed(g, int(reps), 2)
        except Exception as e:  # e.g. e5m2 x e5m2, which cuBLASLt lacks
            out["error"] = str(e).splitlines()[0]
        about(out)
        del a, b
        torch.cuda.empty_cache()


def attention(reps, *cases):
    import math
    from torch.nn.attention import SDPBackend, sdpa_kernel

    f = torch.nn.functional
    for case in cases:
        b, hq, hkv, lq, lk, d, causal, name = case.split(",")
        b, hq, hkv, lq, lk, d, causal = (int(x) for x in (b, hq, hkv, lq, lk, d, causal))
        dt = getattr(torch, name)
        out = {"case": case}
        q = (torch.rand(b, lq, hq, d, device="cuda") * 2 - 1).to(dt).transpose(1, 2)
        k = (torch.rand(b, lk, hkv, d, device="cuda") * 2 - 1).to(dt).transpose(1, 2)
        v = (torch.rand(b, lk, hkv, d, device="cuda") * 2 - 1).to(dt).transpose(1, 2)
        mask = None
        if causal and lq != lk:
            from torch.nn.attention.bias import causal_lower_right

            mask = causal_lower_right(lq, lk)
        kw = {"attn_mask": mask} if mask is not None else {"is_causal": bool(causal)}
        # the float32 answer on 32 query rows of every head
        rows = torch.linspace(0, lq - 1, min(32, lq), device="cuda").long()
        group = hq // hkv
        kf = k.float().repeat_interleave(group, dim=1)
        vf = v.float().repeat_interleave(group, dim=1)
        s = q.float()[:, :, rows] @ kf.transpose(-1, -2) / math.sqrt(d)
        if causal:
            keys = torch.arange(lk, device="cuda")
            s = s.masked_fill(keys[None, :] > (rows[:, None] + lk - lq), float("-inf"))
        ref = torch.softmax(s, dim=-1).nan_to_num(0.0) @ vf
        del s
        for backend, key in [(SDPBackend.FLASH_ATTENTION, "flash"), (SDPBackend.CUDNN_ATTENTION, "cudnn")]:
            try:
                with sdpa_kernel(backend):
                    try:
                        run = lambda: f.scaled_dot_product_attention(q, k, v, enable_gqa=group > 1, **kw)
                        o = run()
                    except (RuntimeError, TypeError):
                        # no grouped heads in this backend: K and V repeated beforehand
                        kr, vr = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
                        run = lambda: f.scaled_dot_product_attention(q, kr, vr, **kw)
                        o = run()
                        out[key + "_note"] = "K and V repeated"
                    out[key + "_err"] = float((o[:, :, rows].float() - ref).abs().max())
                    out[key + "_ms"] = timed(run, int(reps), 2)
            except Exception as e:
                out[key + "_error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
        about(out)
        del q, k, v, kf, vf, ref
        torch.cuda.empty_cache()


{"copy": copy, "gemm": gemm, "epilogue": epilogue, "scaled": scaled, "attention": attention}[sys.argv[1]](*sys.argv[2:])
