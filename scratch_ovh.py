import sys, time, numpy as np, weft as wf
dev = wf.get_device(sys.argv[1]); n = int(sys.argv[2])
rng = np.random.default_rng(0)
with wf.device(dev):
    x = wf.asarray(rng.standard_normal((n, 2))); y = wf.asarray(rng.standard_normal(n))
    beta = wf.asarray(rng.standard_normal(2)); mu = wf.asarray(rng.standard_normal(n))
    def t(f, k=300):
        for _ in range(20): f()
        wf.synchronize(); t0=time.perf_counter()
        for _ in range(k): f()
        wf.synchronize(); return (time.perf_counter()-t0)/k*1e6
    print(dev, n)
    print(" build glm", t(lambda: wf.stats.normal_id_glm_lpdf(y, x, 0.3, beta, 1.2)))
    print(" glm eval", t(lambda: wf.stats.normal_id_glm_lpdf(y, x, 0.3, beta, 1.2).eval()))
    print(" glm eval+float", t(lambda: float(wf.stats.normal_id_glm_lpdf(y, x, 0.3, beta, 1.2))))
    print(" norm eval", t(lambda: wf.stats.normal_lpdf(y, mu, 1.2).eval()))
    print(" y+mu eval", t(lambda: (y+mu).eval()))
    print(" sum eval", t(lambda: wf.sum(y).eval()))
