set terminal pngcairo size 1400,1000 font ',10'
set output 'ulp_binary64.png'
set multiplot layout 2,2 title 'ulp error against x, binary64 (max per bin of width 0.05; 0 drawn at 1e-4), seed 1'
set logscale y
set format y '10^{%L}'
set xrange [-40:10]
set grid
set xlabel 'x'
set ylabel 'ulp error'
set key top left
set title 'tanh value (double)'
plot 'plot-data/ulp_binary64_tanh_value_s4.dat' with points pt 7 ps 0.4 lc rgb '#ff7f0e' title 'onnxruntime', 'plot-data/ulp_binary64_tanh_value_s2.dat' with points pt 7 ps 0.4 lc rgb '#2ca02c' title 'torch', 'plot-data/ulp_binary64_tanh_value_s1.dat' with points pt 7 ps 0.4 lc rgb '#d62728' title 'naive', 'plot-data/ulp_binary64_tanh_value_s0.dat' with points pt 7 ps 0.4 lc rgb '#1f77b4' title 'accurate', 1 with lines dt 2 lc rgb 'black' title 'claim of accurate: 1 ulp', 1/0 notitle
set title 'tanh derivative (double)'
plot 'plot-data/ulp_binary64_tanh_derivative_s2.dat' with points pt 7 ps 0.4 lc rgb '#2ca02c' title 'torch', 'plot-data/ulp_binary64_tanh_derivative_s1.dat' with points pt 7 ps 0.4 lc rgb '#d62728' title 'naive', 'plot-data/ulp_binary64_tanh_derivative_s0.dat' with points pt 7 ps 0.4 lc rgb '#1f77b4' title 'accurate', 1 with lines dt 2 lc rgb 'black' title 'claim of accurate: 1 ulp', 1/0 notitle
set title 'erf value (double)'
plot 'plot-data/ulp_binary64_erf_value_s2.dat' with points pt 7 ps 0.4 lc rgb '#2ca02c' title 'torch', 'plot-data/ulp_binary64_erf_value_s1.dat' with points pt 7 ps 0.4 lc rgb '#d62728' title 'naive', 'plot-data/ulp_binary64_erf_value_s0.dat' with points pt 7 ps 0.4 lc rgb '#1f77b4' title 'accurate', 1 with lines dt 2 lc rgb 'black' title 'claim of accurate: 1 ulp', 1/0 notitle
set title 'erf derivative (double)'
plot 'plot-data/ulp_binary64_erf_derivative_s2.dat' with points pt 7 ps 0.4 lc rgb '#2ca02c' title 'torch', 'plot-data/ulp_binary64_erf_derivative_s1.dat' with points pt 7 ps 0.4 lc rgb '#d62728' title 'naive', 'plot-data/ulp_binary64_erf_derivative_s0.dat' with points pt 7 ps 0.4 lc rgb '#1f77b4' title 'accurate', 1 with lines dt 2 lc rgb 'black' title 'claim of accurate: 1 ulp', 1/0 notitle
unset multiplot
