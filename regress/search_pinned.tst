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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 3 12 50 11 10 "" ""\n"" "" "" 22 22 5 "" "" ""\n"" "" "" 13 "" 61 17 "" ""\n"" "" 9 11 1 9 31 "" ""\n"" "" "" "" 4 9 "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [F5 G5 G4 G6 F6 F7 E7 G7 E8 E6]
30 kosumi-winrate
#? [black F5 win rate 57\.4% visits 222 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D4]
50 genmove b
#? [D4]
60 lz-genmove_analyze w 0
#? [\ninfo move D3 visits 258 winrate 4612 prior 439 lcb 4014 order 0 pv D3 E3 C3 C5 B5 C6 B6 B7 C7 D7 C8 D8 B8 D6 E2 F3 F2 G3 G2 H2 H3 info move C3 visits 233 winrate 4828 prior 357 lcb 4195 order 1 pv C3 D3 C5 C2 B2 D2 F3 F4 G4 G5 G3 H5 H4 J4 J3 J5 D6 info move C5 visits 130 winrate 4654 prior 357 lcb 3819 order 2 pv C5 C3 D3 E3 D2 E2 C2 B3 B2 B4 B5 D5 D6 E6 E7 D7 info move H8 visits 1 winrate 0 prior 99 lcb 0 order 3 pv H8\nplay D3]
70 kosumi-pv
#? [E3 D5 E4 E6 D6 C5 F6 E7 F7 D7 C7 C6 C3 D2 E2 C2 B3 B2]

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
#? [black D4 win rate 60\.0% visits 25 playouts 150]
120 kosumi-pv w
#? [E10 F10 F11 G11 G10]
