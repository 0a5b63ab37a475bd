# PyTorch's side of `kute-cuda gemm`: argv = reps, then SHAPE:DTYPE:PREFIX for
# each case (SHAPE MxNxK; PREFIX, when given, names kute's inputs and output
# PREFIX_{a,b,c}.bin to check). One JSON line per case: torch.matmul's
# milliseconds (A @ B.t() with A (M,K), B (N,K) in DTYPE), timed as kute-cuda
# times (2 warm-up calls, 5 rounds of `reps` calls between CUDA events, the
# median round's mean), and kute's maximum relative error against
# torch.matmul(A.float(), B.float().t()).
import json, sys
import numpy as np
import torch

reps = int(sys.argv[1])

def timed(fn):
    for _ in range(2):
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

for case in sys.argv[2:]:
    shape, name, prefix = case.split(":")
    m, n, k = (int(x) for x in shape.split("x"))
    dt = getattr(torch, name)
    out = {"shape": shape, "dtype": name, "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__}
    if prefix:
        a = torch.from_numpy(np.fromfile(prefix + "_a.bin", dtype=np.int16).reshape(m, k)).view(dt).cuda()
        b = torch.from_numpy(np.fromfile(prefix + "_b.bin", dtype=np.int16).reshape(n, k)).view(dt).cuda()
        c = torch.from_numpy(np.fromfile(prefix + "_c.bin", dtype=np.float32).reshape(m, n)).cuda()
        ref = torch.matmul(a.float(), b.float().t())
        out["max_rel_err"] = float(((c - ref).abs() / ref.abs().clamp_min(1e-6)).max())
    else:
        a = torch.rand(m, k, device="cuda").to(dt)
        b = torch.rand(n, k, device="cuda").to(dt)
    out["matmul_ms"] = timed(lambda: torch.matmul(a, b.t()))
    print(json.dumps(out))
    del a, b
    torch.cuda.empty_cache()
