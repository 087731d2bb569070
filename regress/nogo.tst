# NoGo rules and endgame on a 3x3 board (composed positions).
kosumi-game nogo
boardsize 3
play b b2
play w a1
play b b1
play w a2
10 gogui-rules_legal_moves
#? [C1 C2 B3 C3]
play b c2
# White may not play C1 (suicide) nor capture.
20 gogui-rules_legal_moves
#? [A3 B3 C3]
play w c3
# Black's only move.
30 reg_genmove b
#? [C1]
play b c1
play w a3
# Black has no legal move: resign, White wins.
40 gogui-rules_legal_moves
#? []
50 reg_genmove b
#? [resign]
60 gogui-rules_final_result
#? [White wins: black has no legal move\.]
70 final_score
#? [W\+]
# Never a pass in NoGo.
80 genmove w
#? [!PASS]
