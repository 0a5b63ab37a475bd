# PyTorch's side of `kute-cuda bench` and `kute-cuda gemm`, timed as kute-cuda
# times its kernels: warm-up calls, then 5 rounds of `reps` calls between CUDA
# events, the median round's mean.
#
#   copy SIZES DTYPES REPS: one JSON line per (size, dtype) with the
#     milliseconds per call of `y.copy_(x)` and of `x.t().contiguous()`.
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


{"copy": copy, "gemm": gemm, "epilogue": epilogue}[sys.argv[1]](*sys.argv[2:])
