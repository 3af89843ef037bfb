set terminal pngcairo size 1400,600 font ',10' noenhanced
set output 'gap.png'
set multiplot layout 1,2 title 'tanh form - erf form (exact, from the MPFR reference)'
set grid
set xlabel 'x'
set xrange [-10:10]
set title 'value gap: sup 4.7323552068728488e-04 at |x| = 2.6989413863772702'
plot 'plot-data/gap.dat' using 1:2 with lines lw 2 title 'gelu_tanh(x) - gelu_erf(x)'
set title 'derivative gap: sup 8.6845183498591387e-04 at |x| = 2.0186557597718369'
plot 'plot-data/gap.dat' using 1:3 with lines lw 2 lc rgb '#d62728' title "gelu_tanh'(x) - gelu_erf'(x)"
unset multiplot
