NAME          ITEST6
ROWS
 L  ROW1
 L  ROW2
 L  ROW3
 G  ROW4
 G  ROW5
 L  ROW6
 G  ROW7
 L  ROW8
 E  ROW9
 E  ROW10
 G  ROW11
 N  OBJ10
COLUMNS
    X1        ROW2                1.
    X2        ROW4               -1.   ROW5               -1.
    X2        ROW9                1.   ROW10               1.
    X2        ROW11               1.   OBJ10               1.
    X3        ROW1                .8   ROW4                1.
    X3        ROW6                1.   ROW9              -.05
    X3        ROW10             -.04   OBJ10               1.
    X4        ROW1                1.   ROW5                1.
    X4        ROW10             -.05   OBJ10               1.
    X5        ROW7               -3.   ROW8                .5
    X6        ROW3                2.   ROW8                .6
    X7        ROW7                1.
    X8        ROW3               -1.
RHS
    RHS1      ROW1            10000.   ROW2            90000.
    RHS1      ROW3            10000.   ROW4            50000.
    RHS1      ROW5            87000.   ROW6            50000.
    RHS1      ROW7            10000.   ROW8           300000.
    RHS1      ROW9             5000.   ROW10            4500.
    RHS1      ROW11           80000.
ENDATA
