/* fixture: the lowest layer */
#ifndef S_H
#define S_H
#endif
