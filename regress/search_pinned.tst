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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 19 16 3 13 14 "" ""\n"" "" 2 13 12 20 4 "" ""\n"" "" 4 26 "" 35 "" "" ""\n"" "" 21 4 15 65 "" "" ""\n"" "" "" "" 1 "" 13 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [F4 F6 D6 E5 D5 E4 D4]
30 kosumi-winrate
#? [black F4 win rate 52\.6% visits 171 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [C6]
50 genmove b
#? [C3]
60 lz-genmove_analyze w 0
#? [\ninfo move D4 visits 376 winrate 5439 prior 448 lcb 4933 order 0 pv D4 E4 D3 E3 D2 E2 B3 B4 B5 C5 D5 D6 E6 C6 E7 info move D3 visits 58 winrate 4052 prior 442 lcb 2886 order 1 pv D3 D4 E3 C5 B4 B5 B3 C2 B2 D2 E2 F4 E4 info move B3 visits 26 winrate 4231 prior 319 lcb 2554 order 2 pv B3 D4 D3 C2 E3 C5 B4 B5 info move E6 visits 5 winrate 4000 prior 193 lcb 1176 order 3 pv E6 D4 F5\nplay D4]
70 kosumi-pv
#? [E4 D3 E3 D2 E2 B3 B4 B5 C5 D5 D6 E6 C6 E7]

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
#? [black K6 win rate 63\.3% visits 49 playouts 150]
120 kosumi-pv w
#? [G4 E4 E6 F5]
