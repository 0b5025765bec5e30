import Timebase
