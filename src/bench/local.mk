# bench module: sources of libmotionbench.
