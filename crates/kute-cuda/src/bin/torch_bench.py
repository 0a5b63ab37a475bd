# PyTorch's side of `kute-cuda bench`: argv = sizes, dtypes, reps. One JSON
# line per (size, dtype) with the milliseconds per call of `y.copy_(x)` and of
# `x.t().contiguous()`, timed as kute-cuda times its kernels (3 warm-up calls,
# 5 rounds of `reps` calls between CUDA events, the median round's mean).
import json, sys
import torch

sizes = [int(s) for s in sys.argv[1].split(",")]
dtypes = sys.argv[2].split(",")
reps = int(sys.argv[3])

def timed(fn):
    for _ in range(3):
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

for n in sizes:
    for name in dtypes:
        dt = getattr(torch, name)
        x = torch.rand(n, n, device="cuda").to(dt)
        y = torch.empty_like(x)
        copy_ms = timed(lambda: y.copy_(x))
        assert torch.equal(y, x)
        transpose_ms = timed(lambda: x.t().contiguous())
        assert torch.equal(x.t().contiguous(), x.t())
        print(json.dumps({"size": n, "dtype": name, "copy_ms": copy_ms, "transpose_ms": transpose_ms,
                          "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__}))
        del x, y
        torch.cuda.empty_cache()
