set terminal pngcairo size 1400,1000 font ',10'
set output 'hist_binary16.png'
set multiplot layout 2,2 title 'histogram of ulp errors, binary16, all 63491 inputs'
set logscale y
set grid
set xlabel 'k: error in (2^{k-1}, 2^k]  (-22: zero, 66: infinite)'
set ylabel 'inputs'
set key top right
set xrange [-23:67]
set title 'tanh value (float16)'
plot 'plot-data/hist_binary16_tanh_value_s5.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#8c564b' title 'ggml', 'plot-data/hist_binary16_tanh_value_s4.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#ff7f0e' title 'onnxruntime', 'plot-data/hist_binary16_tanh_value_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_binary16_tanh_value_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'tanh derivative (float16)'
plot 'plot-data/hist_binary16_tanh_derivative_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_binary16_tanh_derivative_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'erf value (float16)'
plot 'plot-data/hist_binary16_erf_value_s5.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#8c564b' title 'ggml', 'plot-data/hist_binary16_erf_value_s4.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#ff7f0e' title 'onnxruntime', 'plot-data/hist_binary16_erf_value_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_binary16_erf_value_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
set title 'erf derivative (float16)'
plot 'plot-data/hist_binary16_erf_derivative_s1.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#d62728' title 'naive', 'plot-data/hist_binary16_erf_derivative_s0.dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '#1f77b4' title 'accurate', 1/0 notitle
unset multiplot
