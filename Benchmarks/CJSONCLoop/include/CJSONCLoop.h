int bench_placeholder(void);
