import time, sys
dur = float(sys.argv[1]); t0 = time.monotonic(); last = t0; worst = 0; gaps = []
while time.monotonic() - t0 < dur:
    time.sleep(0.05)
    now = time.monotonic()
    g = now - last
    if g > 1.0: gaps.append((round(now - t0, 1), round(g, 2)))
    worst = max(worst, g); last = now
print("worst gap %.3f s; gaps>1s: %s" % (worst, gaps))
