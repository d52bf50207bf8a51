# metrics module: sources of libmotionbench.
