NAME          ITEST2
ROWS
 G  ROW1
 G  ROW2
 L  ROW3
 L  ROW4
 L  ROW5
 G  ROW6
 L  ROW7
 L  ROW8
 G  ROW9
 N  OBJ10
COLUMNS
    X1        ROW1               -.5   ROW2                2.
    X1        ROW3                3.   ROW7                1.
    X1        ROW8                1.
    X2        ROW1                1.   ROW2               -1.
    X2        ROW3                1.   ROW8                2.
    X2        ROW9                1.
    X4        ROW5                3.   ROW6                1.
    X4        ROW8                1.   ROW9                1.
    X5        ROW4                1.   ROW5               -1.
    X5        ROW7                1.
RHS
    RHS1      ROW1                .5   ROW2                3.
    RHS1      ROW3                6.   ROW4                2.
    RHS1      ROW5                2.   ROW6                5.
    RHS1      ROW7               10.   ROW8               14.
    RHS1      ROW9                1.
ENDATA
