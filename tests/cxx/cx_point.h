/* cx_point.h - the C type of codec.tagc's Point (the header its code includes). */
#ifndef CX_POINT_H
#define CX_POINT_H
struct cx_point {
    double x, y;
};
#endif
