# contact module: sources of libmotionbench.
