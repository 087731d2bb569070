# Copied from ../shared/suites/nogo/nogo_solved.tst (MCGS test files,
# github.com/ualberta-mueller-group/MCGS, MIT licence; the notice follows).
#
# Copyright (c) 2024-2025 MCGS Developers
# 
# Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:
# 
# The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.
# 
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
#
kosumi-game nogo
# NoGo solved positions (square boards) from MCGS test files
# (github.com/ualberta-mueller-group/MCGS, MIT license; results
# 'from SBHSolver'), re-solved by tools/nogo_convert.py.
# Rules: NoGo - capturing and suicide are illegal, no pass; the
# player without a legal move loses.  Expected answer: the set of
# winning moves (only positions where some legal moves lose).
# NOT standard Go: run only against an engine in NoGo mode.

# ....|....|...O|XX..  (B to move: win; 2 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w D2
play b A1
play b B1
10 reg_genmove b
#? [A3|C3]

# ....|....|...O|XX..  (W to move: win; 6 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w D2
play b A1
play b B1
20 reg_genmove w
#? [C4|A3|B3|C3|C2|C1]

# ....|....|..XO|....  (B to move: win; 9 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b C2
play w D2
30 reg_genmove b
#? [A4|D4|B3|C3|D3|B2|A1|C1|D1]

# ....|....|..XO|....  (W to move: win; 7 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b C2
play w D2
40 reg_genmove w
#? [B4|C4|C3|A2|B2|A1|C1]

# ....|....|.O..|.OX.  (B to move: win; 1 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w B2
play w B1
play b C1
50 reg_genmove b
#? [C3]

# ....|....|.O..|.OX.  (W to move: win; 10 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w B2
play w B1
play b C1
60 reg_genmove w
#? [A4|B4|C4|D4|A3|B3|C3|D3|A2|D2]

# ....|....|.OO.|...X  (W to move: win; 9 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w B2
play w C2
play b D1
70 reg_genmove w
#? [A4|C4|D4|A3|B3|C3|D3|A2|A1]

# ....|...X|..O.|....  (B to move: win; 7 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D3
play w C2
80 reg_genmove b
#? [B4|C4|A3|C3|B2|B1|D1]

# ....|...X|..O.|....  (W to move: win; 10 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D3
play w C2
90 reg_genmove w
#? [A4|B4|C4|D4|B3|C3|B2|A1|B1|D1]

# ....|O...|....|X...  (B to move: win; 7 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w A3
play b A1
100 reg_genmove b
#? [A4|B4|C4|B3|C3|B2|C2]

# ....|O...|....|X...  (W to move: win; 9 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w A3
play b A1
110 reg_genmove w
#? [B4|C4|B3|C3|D3|B2|C2|C1|D1]

# ....|X...|O.O.|....  (W to move: win; 12 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b A3
play w A2
play w C2
120 reg_genmove w
#? [A4|B4|C4|D4|B3|C3|D3|B2|D2|B1|C1|D1]

# ...X|O...|....|X...  (B to move: win; 8 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D4
play w A3
play b A1
130 reg_genmove b
#? [A4|B4|B3|C3|B2|C2|D2|C1]

# ...X|O...|....|X...  (W to move: win; 4 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D4
play w A3
play b A1
140 reg_genmove w
#? [B4|C2|D2|C1]

# ...X|X...|....|O...  (B to move: win; 9 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D4
play b A3
play w A1
150 reg_genmove b
#? [B4|B3|C3|D3|B2|C2|D2|C1|D1]

# ...X|X...|....|O...  (W to move: win; 1 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b D4
play b A3
play w A1
160 reg_genmove w
#? [D2]

# ..O.|....|.X..|....  (B to move: win; 11 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b B2
170 reg_genmove b
#? [A4|B4|D4|B3|C3|D3|A2|C2|D2|A1|D1]

# ..O.|....|.X..|....  (W to move: win; 6 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b B2
180 reg_genmove w
#? [A3|B3|D3|A2|C2|C1]

# ..O.|....|XO..|....  (B to move: win; 1 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b A2
play w B2
190 reg_genmove b
#? [B1]

# ..O.|....|XO..|....  (W to move: win; 10 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b A2
play w B2
200 reg_genmove w
#? [A4|A3|B3|C3|D3|C2|D2|A1|B1|C1]

# ..O.|X...|..X.|....  (B to move: win; 12 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b A3
play b C2
210 reg_genmove b
#? [B4|D4|B3|C3|D3|A2|B2|D2|A1|B1|C1|D1]

# ..O.|X...|..X.|....  (W to move: win; 2 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w C4
play b A3
play b C2
220 reg_genmove w
#? [D3|D2]

# ..X.|....|.O..|XO..  (B to move: win; 5 of 12 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b C4
play w B2
play b A1
play w B1
230 reg_genmove b
#? [A3|B3|D3|A2|C1]

# ..X.|....|.O..|XO..  (W to move: win; 3 of 11 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b C4
play w B2
play b A1
play w B1
240 reg_genmove w
#? [B4|A3|B3]

# ..XX|....|...O|.O..  (W to move: win; 9 of 12 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b C4
play b D4
play w D2
play w B1
250 reg_genmove w
#? [A4|A3|B3|C3|D3|A2|B2|C2|C1]

# .X.O|...O|....|....  (B to move: win; 7 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b B4
play w D4
play w D3
260 reg_genmove b
#? [A3|B3|A2|D2|A1|B1|C1]

# .X.O|...O|....|....  (W to move: win; 2 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b B4
play w D4
play w D3
270 reg_genmove w
#? [A4|C2]

# O...|..X.|....|....  (B to move: win; 12 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w A4
play b C3
280 reg_genmove b
#? [B4|C4|D4|B3|D3|A2|B2|C2|D2|A1|B1|C1]

# O...|..X.|....|....  (W to move: win; 4 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w A4
play b C3
290 reg_genmove w
#? [B3|D3|C2|C1]

# O...|.O..|....|.X..  (W to move: win; 11 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play w A4
play w B3
play b B1
300 reg_genmove w
#? [C4|D4|C3|D3|A2|B2|C2|D2|A1|C1|D1]

# X...|....|O...|....  (B to move: win; 7 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b A4
play w A2
310 reg_genmove b
#? [B3|C3|B2|C2|A1|B1|C1]

# X...|....|O...|....  (W to move: win; 9 of 14 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b A4
play w A2
320 reg_genmove w
#? [C4|D4|B3|C3|B2|C2|D2|B1|C1]

# X.O.|.O..|....|....  (W to move: win; 11 of 13 legal moves win) from nogo_mcgs/input/autotests/nogo_autotests/nogo_4x4_filled.test
boardsize 4
clear_board
play b A4
play w C4
play w B3
330 reg_genmove w
#? [D4|A3|D3|A2|B2|C2|D2|A1|B1|C1|D1]

