# Pinned search results: exact visits, principal variations and moves at a
# fixed seed with one thread and fixed playouts. Not a strength test: any
# change in what the search does (priors, playouts, UCT, tree reuse, the
# random sequence) shows here as a failure, so that a change in behaviour
# is always seen and reviewed. When the change is intended, regenerate the
# expectations and review the diff (see regress/README.md):
#   KOSUMI_REGENERATE=1 cargo test --release --test regress -- --ignored regenerate_pinned
# The suite sets everything it depends on itself.
kosumi-param seed 1
kosumi-param threads 1
kosumi-param playouts 300
kosumi-param ownership_playouts 100

# Go 9x9, empty board, Black to move: visits as GoGui's sboard shows them,
# then the principal variation and the win rate (same position: the tree
# grows by 300 playouts each time).
boardsize 9
clear_board
komi 7
10 kosumi-visits
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 5 8 4 1 4 "" ""\n"" "" "" 15 6 34 10 "" ""\n"" "" "" 14 "" 87 "" "" ""\n"" "" "" 9 13 10 "" "" ""\n"" "" 43 10 "" 23 4 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [F5 D5 E4 D4 D3 C3 C2 E3 D2 F3]
30 kosumi-winrate
#? [black F5 win rate 51\.2% visits 206 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D4]
50 genmove b
#? [D4]
60 lz-genmove_analyze w 0
#? [\ninfo move D3 visits 453 winrate 4834 prior 457 lcb 4378 order 0 pv D3 E3 C3 C5 B5 C6 B6 C7 B7 B8 A8 C8 E2 F3 F2 G3 G2 H2 H1 info move C5 visits 86 winrate 4012 prior 360 lcb 3039 order 1 pv C5 C3 D3 E3 D2 E2 C2 B3 B2 B4 B5 D6 D5 E4 info move C3 visits 32 winrate 3438 prior 366 lcb 2041 order 2 pv C3 D3 D2 E2 C2 C5 B5 C6 B6 C7 B7 B8 A8 C8 info move E7 visits 2 winrate 0 prior 206 lcb 0 order 3 pv E7\nplay D3]
70 kosumi-pv
#? [C5 B5 C6 B6 B7 C7 D7 C8 B8 D8 E7 E8 F7 F8 G7 G8 H8 E3]

# NoGo 7x7.
kosumi-game nogo
boardsize 7
80 kosumi-visits
#? [\n"" 1 7 "" "" "" ""\n"" "" "" "" "" "" ""\n6 "" "" "" 1 1 ""\n7 "" "" "" "" "" 2\n7 1 "" "" "" 2 ""\n"" 3 33 2 "" 15 ""\n1 "" 2 206 3 "" ""]
90 genmove b
#? [D1]
100 kosumi-pv
#? [D6 E2 G3 B2 A6 F1]

# Go 13x13 with a smaller budget.
kosumi-game go
boardsize 13
kosumi-param playouts 150
110 kosumi-winrate
#? [black F10 win rate 58\.7% visits 46 playouts 150]
120 kosumi-pv w
#? [K6 K4 H4 J5]
