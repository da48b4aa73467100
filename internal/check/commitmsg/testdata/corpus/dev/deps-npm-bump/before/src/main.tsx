import React from "react";
