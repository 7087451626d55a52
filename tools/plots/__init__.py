"""The pictures of tools/plot_bench.py, one module a picture (or family),
what they share in common, trials and fields."""
