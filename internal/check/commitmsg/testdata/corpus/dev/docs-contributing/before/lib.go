package lib
