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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" 4 16 3 14 "" ""\n"" "" 1 35 5 1 21 "" ""\n"" "" 16 43 "" 14 5 "" ""\n"" "" 6 11 18 19 "" "" ""\n"" "" 4 1 48 4 11 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [D5 E4 D4 D3 C3]
30 kosumi-winrate
#? [black E3 win rate 57\.7% visits 84 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [C5]
50 genmove b
#? [C5]
60 lz-genmove_analyze w 0
#? [\ninfo move E4 visits 137 winrate 5401 prior 206 lcb 4567 order 0 pv E4 F4 F3 G4 F5 F6 info move D4 visits 101 winrate 4851 prior 257 lcb 3900 order 1 pv D4 E4 E3 F4 D5 info move D5 visits 85 winrate 5118 prior 231 lcb 4073 order 2 pv D5 D4 D6 C6 C7 E4 info move B5 visits 53 winrate 4811 prior 206 lcb 3525 order 3 pv B5 C6 F7 D4 C3 info move D6 visits 33 winrate 4697 prior 231 lcb 3117 order 4 pv D6 E6 D5 E4 D4 info move C7 visits 23 winrate 3261 prior 231 lcb 1719 order 5 pv C7 D4 C3 D3 E4 info move D2 visits 13 winrate 5385 prior 103 lcb 2914 order 6 pv D2 D4 C3 E3 info move C6 visits 12 winrate 3333 prior 231 lcb 1381 order 7 pv C6 D5 F5 info move G2 visits 10 winrate 5000 prior 103 lcb 2366 order 8 pv G2 D4 D3 info move G7 visits 8 winrate 3750 prior 206 lcb 1368 order 9 pv G7 D4 D3 info move D7 visits 7 winrate 3571 prior 206 lcb 1181 order 10 pv D7 D4 D3 info move F3 visits 7 winrate 2857 prior 206 lcb 822 order 11 pv F3 D4 C3 info move E3 visits 4 winrate 0 prior 206 lcb 0 order 12 pv E3 D4 info move E6 visits 4 winrate 0 prior 206 lcb 0 order 13 pv E6 F5 info move F6 visits 2 winrate 0 prior 206 lcb 0 order 14 pv F6 info move C3 visits 1 winrate 0 prior 231 lcb 0 order 15 pv C3\nplay E4]
70 kosumi-pv
#? [F4 F5 F6 G5 G6 E6 D5]

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
#? [black K7 win rate 58\.6% visits 29 playouts 150]
120 kosumi-pv w
#? [C6 C5 D5 D4]
