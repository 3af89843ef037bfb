set terminal pngcairo size 1400,1000 font ',10'
set output 'hist_bfloat16.png'
set multiplot layout 2,2 title 'histogram of ulp errors, bfloat16, all 65283 inputs'
set logscale y
set grid
set xlabel 'k: error in (2^{k-1}, 2^k]  (-22: zero, 66: infinite)'
set ylabel 'inputs'
set key top right
set xrange [-23:67]
set title 'tanh value (bfloat16)'
plot 'plot-data/hist_bfloat16_tanh_value_s3.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#9467bd' title 'onednn', 'plot-data/hist_bfloat16_tanh_value_s2.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#2ca02c' title 'torch', 'plot-data/hist_bfloat16_tanh_value_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_bfloat16_tanh_value_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'tanh derivative (bfloat16)'
plot 'plot-data/hist_bfloat16_tanh_derivative_s3.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#9467bd' title 'onednn', 'plot-data/hist_bfloat16_tanh_derivative_s2.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#2ca02c' title 'torch', 'plot-data/hist_bfloat16_tanh_derivative_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_bfloat16_tanh_derivative_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'erf value (bfloat16)'
plot 'plot-data/hist_bfloat16_erf_value_s3.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#9467bd' title 'onednn', 'plot-data/hist_bfloat16_erf_value_s2.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#2ca02c' title 'torch', 'plot-data/hist_bfloat16_erf_value_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_bfloat16_erf_value_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'erf derivative (bfloat16)'
plot 'plot-data/hist_bfloat16_erf_derivative_s3.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#9467bd' title 'onednn', 'plot-data/hist_bfloat16_erf_derivative_s2.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#2ca02c' title 'torch', 'plot-data/hist_bfloat16_erf_derivative_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_bfloat16_erf_derivative_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
unset multiplot
