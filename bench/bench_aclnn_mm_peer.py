#!/usr/bin/python3
"""bench_aclnn_mm_peer.py - PyTorch's side of bench_aclnn_mm: the same matrix products and convolutions on
the CPU, float32, with torch.set_num_threads(THREADS).

    bench_aclnn_mm_peer.py THREADS

Reads commands on stdin, one a line, and answers each on stdout:
    case NAME KIND ARGS...   prepares a case (KIND mm: M K N transposed; bmm: B M K N; conv: N C H W OC KH KW
                             STRIDE PAD DILATION GROUPS TRANSPOSED) and answers "ok"
    run ITERS                runs the prepared case ITERS times and answers the microseconds per call
    quit
The matrix products write into a preallocated output (out=), as aclnn does; a convolution allocates its
output (torch has no out= for it).
"""
import sys
import time

sys.dont_write_bytecode = True

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
torch.manual_seed(0)
fn = None

for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "quit":
        break
    if w[0] == "case":
        kind, v = w[2], [int(x) for x in w[3:]]
        if kind == "mm":
            m, k, n, tr = v
            a = torch.randn(m, k)
            b = torch.randn(n, k).t() if tr else torch.randn(k, n)
            c = torch.empty(m, n)
            fn = lambda a=a, b=b, c=c: torch.matmul(a, b, out=c)  # noqa: E731
        elif kind == "bmm":
            bt, m, k, n = v
            a, b, c = torch.randn(bt, m, k), torch.randn(bt, k, n), torch.empty(bt, m, n)
            fn = lambda a=a, b=b, c=c: torch.bmm(a, b, out=c)  # noqa: E731
        else:
            nb, ch, h, wd, oc, kh, kw, s, p, d, g, tr = v
            x = torch.randn(nb, ch, h, wd)
            if tr:
                wt, bias = torch.randn(ch, oc // g, kh, kw), torch.randn(oc)
                fn = lambda x=x, wt=wt, bias=bias: F.conv_transpose2d(  # noqa: E731
                    x, wt, bias, stride=s, padding=p, groups=g, dilation=d)
            else:
                wt, bias = torch.randn(oc, ch // g, kh, kw), torch.randn(oc)
                fn = lambda x=x, wt=wt, bias=bias: F.conv2d(  # noqa: E731
                    x, wt, bias, stride=s, padding=p, dilation=d, groups=g)
        with torch.no_grad():
            fn()
        print("ok", flush=True)
    elif w[0] == "run":
        iters = int(w[1])
        with torch.no_grad():
            t0 = time.perf_counter()
            for _ in range(iters):
                fn()
            t1 = time.perf_counter()
        print("%.3f" % ((t1 - t0) * 1e6 / iters), flush=True)
