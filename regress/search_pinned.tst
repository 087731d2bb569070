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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 23 15 3 11 7 "" ""\n"" "" "" 15 9 22 1 "" ""\n"" "" 3 7 "" 14 "" "" ""\n"" "" "" 11 52 10 "" "" ""\n"" "" 7 18 "" 47 25 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [F3 D3 D5 E4 F4 E5 E6 F5 G5 F6]
30 kosumi-winrate
#? [black F3 win rate 55\.3% visits 187 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D4]
50 genmove b
#? [D4]
60 lz-genmove_analyze w 0
#? [\ninfo move D3 visits 317 winrate 4432 prior 457 lcb 3895 order 0 pv D3 E3 C3 C5 B5 C6 B6 C7 B7 B8 A8 C8 E2 F3 F2 G3 G2 H2 H1 H3 info move C5 visits 91 winrate 4396 prior 360 lcb 3421 order 1 pv C5 C3 D3 E3 D2 E2 C2 B3 B2 B4 B5 D6 D5 E4 E6 F6 E7 F7 D7 info move C3 visits 64 winrate 3672 prior 366 lcb 2598 order 2 pv C3 D3 D2 E2 C2 C5 B5 C6 B6 C7 B7 B8 A8 C8 B9 C9 G5 G3 info move E3 visits 34 winrate 3676 prior 242 lcb 2269 order 3 pv E3 D3 C3 C5 B5 C6 B6 C7 B7 B8 D2 E2 info move E4 visits 6 winrate 3333 prior 242 lcb 968 order 4 pv E4 D5 D3\nplay D3]
70 kosumi-pv
#? [E3 C3 C5 B5 C6 B6 C7 B7 B8 A8 C8 E2 F3 F2 G3 G2 H2 H1 H3]

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
#? [black F10 win rate 44\.0% visits 25 playouts 150]
120 kosumi-pv w
#? [K9 K7 K5 H5]
