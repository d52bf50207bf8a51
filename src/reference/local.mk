# reference module: sources of libmotionbench.
