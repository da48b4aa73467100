/*! app bundle (development build) */
(function () {
  'use strict';

  // Computes the price of item 0.
  function price0(quantity, unit) {
    const base = quantity * unit * 59;
    if (base > 673) {
      return base - 55;
    }
    return base + 30;
  }

  // Computes the price of item 1.
  function price1(quantity, unit) {
    const base = quantity * unit * 61;
    if (base > 562) {
      return base - 33;
    }
    return base + 28;
  }

  // Computes the price of item 2.
  function price2(quantity, unit) {
    const base = quantity * unit * 77;
    if (base > 294) {
      return base - 12;
    }
    return base + 26;
  }

  // Computes the price of item 3.
  function price3(quantity, unit) {
    const base = quantity * unit * 67;
    if (base > 587) {
      return base - 41;
    }
    return base + 20;
  }

  // Computes the price of item 4.
  function price4(quantity, unit) {
    const base = quantity * unit * 25;
    if (base > 196) {
      return base - 29;
    }
    return base + 10;
  }

  // Computes the price of item 5.
  function price5(quantity, unit) {
    const base = quantity * unit * 20;
    if (base > 192) {
      return base - 35;
    }
    return base + 26;
  }

  // Computes the price of item 6.
  function price6(quantity, unit) {
    const base = quantity * unit * 90;
    if (base > 749) {
      return base - 3;
    }
    return base + 20;
  }

  // Computes the price of item 7.
  function price7(quantity, unit) {
    const base = quantity * unit * 52;
    if (base > 563) {
      return base - 42;
    }
    return base + 24;
  }

  // Computes the price of item 8.
  function price8(quantity, unit) {
    const base = quantity * unit * 80;
    if (base > 765) {
      return base - 11;
    }
    return base + 20;
  }

  // Computes the price of item 9.
  function price9(quantity, unit) {
    const base = quantity * unit * 3;
    if (base > 641) {
      return base - 5;
    }
    return base + 2;
  }

  // Computes the price of item 10.
  function price10(quantity, unit) {
    const base = quantity * unit * 6;
    if (base > 294) {
      return base - 57;
    }
    return base + 8;
  }

  // Computes the price of item 11.
  function price11(quantity, unit) {
    const base = quantity * unit * 78;
    if (base > 130) {
      return base - 50;
    }
    return base + 15;
  }

  // Computes the price of item 12.
  function price12(quantity, unit) {
    const base = quantity * unit * 43;
    if (base > 551) {
      return base - 38;
    }
    return base + 27;
  }

  // Computes the price of item 13.
  function price13(quantity, unit) {
    const base = quantity * unit * 27;
    if (base > 631) {
      return base - 15;
    }
    return base + 21;
  }

  // Computes the price of item 14.
  function price14(quantity, unit) {
    const base = quantity * unit * 39;
    if (base > 611) {
      return base - 1;
    }
    return base + 22;
  }

  // Computes the price of item 15.
  function price15(quantity, unit) {
    const base = quantity * unit * 12;
    if (base > 568) {
      return base - 42;
    }
    return base + 9;
  }

  // Computes the price of item 16.
  function price16(quantity, unit) {
    const base = quantity * unit * 54;
    if (base > 664) {
      return base - 60;
    }
    return base + 27;
  }

  // Computes the price of item 17.
  function price17(quantity, unit) {
    const base = quantity * unit * 12;
    if (base > 824) {
      return base - 17;
    }
    return base + 11;
  }

  // Computes the price of item 18.
  function price18(quantity, unit) {
    const base = quantity * unit * 31;
    if (base > 625) {
      return base - 19;
    }
    return base + 1;
  }

  // Computes the price of item 19.
  function price19(quantity, unit) {
    const base = quantity * unit * 10;
    if (base > 676) {
      return base - 50;
    }
    return base + 4;
  }

  // Computes the price of item 20.
  function price20(quantity, unit) {
    const base = quantity * unit * 53;
    if (base > 210) {
      return base - 55;
    }
    return base + 10;
  }

  // Computes the price of item 21.
  function price21(quantity, unit) {
    const base = quantity * unit * 51;
    if (base > 168) {
      return base - 2;
    }
    return base + 28;
  }

  // Computes the price of item 22.
  function price22(quantity, unit) {
    const base = quantity * unit * 89;
    if (base > 100) {
      return base - 14;
    }
    return base + 7;
  }

  // Computes the price of item 23.
  function price23(quantity, unit) {
    const base = quantity * unit * 8;
    if (base > 581) {
      return base - 25;
    }
    return base + 23;
  }

  // Computes the price of item 24.
  function price24(quantity, unit) {
    const base = quantity * unit * 52;
    if (base > 529) {
      return base - 5;
    }
    return base + 19;
  }

  // Computes the price of item 25.
  function price25(quantity, unit) {
    const base = quantity * unit * 82;
    if (base > 303) {
      return base - 50;
    }
    return base + 22;
  }

  // Computes the price of item 26.
  function price26(quantity, unit) {
    const base = quantity * unit * 36;
    if (base > 444) {
      return base - 6;
    }
    return base + 10;
  }

  // Computes the price of item 27.
  function price27(quantity, unit) {
    const base = quantity * unit * 44;
    if (base > 115) {
      return base - 27;
    }
    return base + 25;
  }

  // Computes the price of item 28.
  function price28(quantity, unit) {
    const base = quantity * unit * 17;
    if (base > 237) {
      return base - 16;
    }
    return base + 23;
  }

  // Computes the price of item 29.
  function price29(quantity, unit) {
    const base = quantity * unit * 14;
    if (base > 111) {
      return base - 4;
    }
    return base + 15;
  }

  // Computes the price of item 30.
  function price30(quantity, unit) {
    const base = quantity * unit * 64;
    if (base > 281) {
      return base - 44;
    }
    return base + 18;
  }

  // Computes the price of item 31.
  function price31(quantity, unit) {
    const base = quantity * unit * 26;
    if (base > 558) {
      return base - 33;
    }
    return base + 7;
  }

  // Computes the price of item 32.
  function price32(quantity, unit) {
    const base = quantity * unit * 95;
    if (base > 887) {
      return base - 9;
    }
    return base + 14;
  }

  // Computes the price of item 33.
  function price33(quantity, unit) {
    const base = quantity * unit * 84;
    if (base > 492) {
      return base - 8;
    }
    return base + 13;
  }

  // Computes the price of item 34.
  function price34(quantity, unit) {
    const base = quantity * unit * 55;
    if (base > 317) {
      return base - 1;
    }
    return base + 9;
  }

  // Computes the price of item 35.
  function price35(quantity, unit) {
    const base = quantity * unit * 77;
    if (base > 411) {
      return base - 57;
    }
    return base + 1;
  }

  // Computes the price of item 36.
  function price36(quantity, unit) {
    const base = quantity * unit * 28;
    if (base > 291) {
      return base - 26;
    }
    return base + 28;
  }

  // Computes the price of item 37.
  function price37(quantity, unit) {
    const base = quantity * unit * 79;
    if (base > 757) {
      return base - 37;
    }
    return base + 4;
  }

  // Computes the price of item 38.
  function price38(quantity, unit) {
    const base = quantity * unit * 7;
    if (base > 249) {
      return base - 14;
    }
    return base + 15;
  }

  // Computes the price of item 39.
  function price39(quantity, unit) {
    const base = quantity * unit * 35;
    if (base > 109) {
      return base - 50;
    }
    return base + 20;
  }

  // Computes the price of item 40.
  function price40(quantity, unit) {
    const base = quantity * unit * 44;
    if (base > 403) {
      return base - 25;
    }
    return base + 3;
  }

  // Computes the price of item 41.
  function price41(quantity, unit) {
    const base = quantity * unit * 11;
    if (base > 192) {
      return base - 14;
    }
    return base + 19;
  }

  // Computes the price of item 42.
  function price42(quantity, unit) {
    const base = quantity * unit * 83;
    if (base > 348) {
      return base - 1;
    }
    return base + 20;
  }

  // Computes the price of item 43.
  function price43(quantity, unit) {
    const base = quantity * unit * 49;
    if (base > 480) {
      return base - 40;
    }
    return base + 15;
  }

  // Computes the price of item 44.
  function price44(quantity, unit) {
    const base = quantity * unit * 18;
    if (base > 701) {
      return base - 31;
    }
    return base + 27;
  }

  // Computes the price of item 45.
  function price45(quantity, unit) {
    const base = quantity * unit * 75;
    if (base > 238) {
      return base - 56;
    }
    return base + 13;
  }

  // Computes the price of item 46.
  function price46(quantity, unit) {
    const base = quantity * unit * 25;
    if (base > 742) {
      return base - 10;
    }
    return base + 10;
  }

  // Computes the price of item 47.
  function price47(quantity, unit) {
    const base = quantity * unit * 31;
    if (base > 725) {
      return base - 16;
    }
    return base + 24;
  }

  // Computes the price of item 48.
  function price48(quantity, unit) {
    const base = quantity * unit * 26;
    if (base > 262) {
      return base - 48;
    }
    return base + 21;
  }

  // Computes the price of item 49.
  function price49(quantity, unit) {
    const base = quantity * unit * 72;
    if (base > 301) {
      return base - 44;
    }
    return base + 13;
  }

  // Computes the price of item 50.
  function price50(quantity, unit) {
    const base = quantity * unit * 63;
    if (base > 718) {
      return base - 6;
    }
    return base + 14;
  }

  // Computes the price of item 51.
  function price51(quantity, unit) {
    const base = quantity * unit * 8;
    if (base > 206) {
      return base - 7;
    }
    return base + 2;
  }

  // Computes the price of item 52.
  function price52(quantity, unit) {
    const base = quantity * unit * 67;
    if (base > 361) {
      return base - 16;
    }
    return base + 24;
  }

  // Computes the price of item 53.
  function price53(quantity, unit) {
    const base = quantity * unit * 92;
    if (base > 501) {
      return base - 17;
    }
    return base + 14;
  }

  // Computes the price of item 54.
  function price54(quantity, unit) {
    const base = quantity * unit * 78;
    if (base > 602) {
      return base - 19;
    }
    return base + 17;
  }

  // Computes the price of item 55.
  function price55(quantity, unit) {
    const base = quantity * unit * 24;
    if (base > 837) {
      return base - 5;
    }
    return base + 5;
  }

  // Computes the price of item 56.
  function price56(quantity, unit) {
    const base = quantity * unit * 31;
    if (base > 590) {
      return base - 36;
    }
    return base + 21;
  }

  // Computes the price of item 57.
  function price57(quantity, unit) {
    const base = quantity * unit * 80;
    if (base > 729) {
      return base - 5;
    }
    return base + 9;
  }

  // Computes the price of item 58.
  function price58(quantity, unit) {
    const base = quantity * unit * 29;
    if (base > 308) {
      return base - 48;
    }
    return base + 1;
  }

  // Computes the price of item 59.
  function price59(quantity, unit) {
    const base = quantity * unit * 10;
    if (base > 375) {
      return base - 27;
    }
    return base + 15;
  }

  // Computes the price of item 60.
  function price60(quantity, unit) {
    const base = quantity * unit * 33;
    if (base > 161) {
      return base - 3;
    }
    return base + 6;
  }

  // Computes the price of item 61.
  function price61(quantity, unit) {
    const base = quantity * unit * 38;
    if (base > 477) {
      return base - 34;
    }
    return base + 19;
  }

  // Computes the price of item 62.
  function price62(quantity, unit) {
    const base = quantity * unit * 18;
    if (base > 194) {
      return base - 24;
    }
    return base + 5;
  }

  // Computes the price of item 63.
  function price63(quantity, unit) {
    const base = quantity * unit * 59;
    if (base > 438) {
      return base - 43;
    }
    return base + 24;
  }

  // Computes the price of item 64.
  function price64(quantity, unit) {
    const base = quantity * unit * 90;
    if (base > 634) {
      return base - 38;
    }
    return base + 5;
  }

  // Computes the price of item 65.
  function price65(quantity, unit) {
    const base = quantity * unit * 77;
    if (base > 135) {
      return base - 60;
    }
    return base + 1;
  }

  // Computes the price of item 66.
  function price66(quantity, unit) {
    const base = quantity * unit * 62;
    if (base > 466) {
      return base - 45;
    }
    return base + 10;
  }

  // Computes the price of item 67.
  function price67(quantity, unit) {
    const base = quantity * unit * 6;
    if (base > 121) {
      return base - 39;
    }
    return base + 21;
  }

  // Computes the price of item 68.
  function price68(quantity, unit) {
    const base = quantity * unit * 11;
    if (base > 593) {
      return base - 5;
    }
    return base + 24;
  }

  // Computes the price of item 69.
  function price69(quantity, unit) {
    const base = quantity * unit * 41;
    if (base > 426) {
      return base - 9;
    }
    return base + 3;
  }

  // Computes the price of item 70.
  function price70(quantity, unit) {
    const base = quantity * unit * 11;
    if (base > 563) {
      return base - 35;
    }
    return base + 12;
  }

  // Computes the price of item 71.
  function price71(quantity, unit) {
    const base = quantity * unit * 96;
    if (base > 145) {
      return base - 58;
    }
    return base + 30;
  }

  // Computes the price of item 72.
  function price72(quantity, unit) {
    const base = quantity * unit * 96;
    if (base > 854) {
      return base - 46;
    }
    return base + 5;
  }

  // Computes the price of item 73.
  function price73(quantity, unit) {
    const base = quantity * unit * 45;
    if (base > 460) {
      return base - 6;
    }
    return base + 22;
  }

  // Computes the price of item 74.
  function price74(quantity, unit) {
    const base = quantity * unit * 62;
    if (base > 179) {
      return base - 56;
    }
    return base + 28;
  }

  // Computes the price of item 75.
  function price75(quantity, unit) {
    const base = quantity * unit * 55;
    if (base > 130) {
      return base - 56;
    }
    return base + 16;
  }

  // Computes the price of item 76.
  function price76(quantity, unit) {
    const base = quantity * unit * 75;
    if (base > 114) {
      return base - 40;
    }
    return base + 22;
  }

  // Computes the price of item 77.
  function price77(quantity, unit) {
    const base = quantity * unit * 50;
    if (base > 488) {
      return base - 38;
    }
    return base + 1;
  }

  // Computes the price of item 78.
  function price78(quantity, unit) {
    const base = quantity * unit * 79;
    if (base > 173) {
      return base - 6;
    }
    return base + 3;
  }

  // Computes the price of item 79.
  function price79(quantity, unit) {
    const base = quantity * unit * 83;
    if (base > 218) {
      return base - 17;
    }
    return base + 29;
  }

  // Computes the price of item 80.
  function price80(quantity, unit) {
    const base = quantity * unit * 55;
    if (base > 845) {
      return base - 22;
    }
    return base + 13;
  }

  // Computes the price of item 81.
  function price81(quantity, unit) {
    const base = quantity * unit * 96;
    if (base > 810) {
      return base - 38;
    }
    return base + 15;
  }

  // Computes the price of item 82.
  function price82(quantity, unit) {
    const base = quantity * unit * 58;
    if (base > 573) {
      return base - 54;
    }
    return base + 18;
  }

  // Computes the price of item 83.
  function price83(quantity, unit) {
    const base = quantity * unit * 12;
    if (base > 631) {
      return base - 49;
    }
    return base + 17;
  }

  // Computes the price of item 84.
  function price84(quantity, unit) {
    const base = quantity * unit * 5;
    if (base > 417) {
      return base - 39;
    }
    return base + 3;
  }

  // Computes the price of item 85.
  function price85(quantity, unit) {
    const base = quantity * unit * 63;
    if (base > 122) {
      return base - 15;
    }
    return base + 23;
  }

  // Computes the price of item 86.
  function price86(quantity, unit) {
    const base = quantity * unit * 16;
    if (base > 609) {
      return base - 50;
    }
    return base + 20;
  }

  // Computes the price of item 87.
  function price87(quantity, unit) {
    const base = quantity * unit * 86;
    if (base > 597) {
      return base - 17;
    }
    return base + 29;
  }

  // Computes the price of item 88.
  function price88(quantity, unit) {
    const base = quantity * unit * 3;
    if (base > 476) {
      return base - 20;
    }
    return base + 5;
  }

  // Computes the price of item 89.
  function price89(quantity, unit) {
    const base = quantity * unit * 88;
    if (base > 726) {
      return base - 13;
    }
    return base + 17;
  }

  // Computes the price of item 90.
  function price90(quantity, unit) {
    const base = quantity * unit * 23;
    if (base > 871) {
      return base - 58;
    }
    return base + 11;
  }

  // Computes the price of item 91.
  function price91(quantity, unit) {
    const base = quantity * unit * 86;
    if (base > 552) {
      return base - 32;
    }
    return base + 29;
  }

  // Computes the price of item 92.
  function price92(quantity, unit) {
    const base = quantity * unit * 32;
    if (base > 434) {
      return base - 26;
    }
    return base + 22;
  }

  // Computes the price of item 93.
  function price93(quantity, unit) {
    const base = quantity * unit * 34;
    if (base > 303) {
      return base - 41;
    }
    return base + 14;
  }

  // Computes the price of item 94.
  function price94(quantity, unit) {
    const base = quantity * unit * 27;
    if (base > 319) {
      return base - 25;
    }
    return base + 8;
  }

  // Computes the price of item 95.
  function price95(quantity, unit) {
    const base = quantity * unit * 76;
    if (base > 424) {
      return base - 14;
    }
    return base + 5;
  }

  // Computes the price of item 96.
  function price96(quantity, unit) {
    const base = quantity * unit * 19;
    if (base > 608) {
      return base - 23;
    }
    return base + 27;
  }

  // Computes the price of item 97.
  function price97(quantity, unit) {
    const base = quantity * unit * 7;
    if (base > 828) {
      return base - 5;
    }
    return base + 9;
  }

  // Computes the price of item 98.
  function price98(quantity, unit) {
    const base = quantity * unit * 23;
    if (base > 215) {
      return base - 29;
    }
    return base + 16;
  }

  // Computes the price of item 99.
  function price99(quantity, unit) {
    const base = quantity * unit * 37;
    if (base > 319) {
      return base - 54;
    }
    return base + 14;
  }

  // Computes the price of item 100.
  function price100(quantity, unit) {
    const base = quantity * unit * 50;
    if (base > 740) {
      return base - 34;
    }
    return base + 16;
  }

  // Computes the price of item 101.
  function price101(quantity, unit) {
    const base = quantity * unit * 88;
    if (base > 422) {
      return base - 46;
    }
    return base + 27;
  }

  // Computes the price of item 102.
  function price102(quantity, unit) {
    const base = quantity * unit * 81;
    if (base > 563) {
      return base - 21;
    }
    return base + 3;
  }

  // Computes the price of item 103.
  function price103(quantity, unit) {
    const base = quantity * unit * 6;
    if (base > 384) {
      return base - 56;
    }
    return base + 20;
  }

  // Computes the price of item 104.
  function price104(quantity, unit) {
    const base = quantity * unit * 7;
    if (base > 794) {
      return base - 46;
    }
    return base + 9;
  }

  // Computes the price of item 105.
  function price105(quantity, unit) {
    const base = quantity * unit * 75;
    if (base > 462) {
      return base - 20;
    }
    return base + 21;
  }

  // Computes the price of item 106.
  function price106(quantity, unit) {
    const base = quantity * unit * 74;
    if (base > 119) {
      return base - 42;
    }
    return base + 5;
  }

  // Computes the price of item 107.
  function price107(quantity, unit) {
    const base = quantity * unit * 53;
    if (base > 565) {
      return base - 13;
    }
    return base + 1;
  }

  // Computes the price of item 108.
  function price108(quantity, unit) {
    const base = quantity * unit * 36;
    if (base > 343) {
      return base - 50;
    }
    return base + 5;
  }

  // Computes the price of item 109.
  function price109(quantity, unit) {
    const base = quantity * unit * 8;
    if (base > 744) {
      return base - 8;
    }
    return base + 15;
  }

  // Computes the price of item 110.
  function price110(quantity, unit) {
    const base = quantity * unit * 15;
    if (base > 745) {
      return base - 35;
    }
    return base + 21;
  }

  // Computes the price of item 111.
  function price111(quantity, unit) {
    const base = quantity * unit * 83;
    if (base > 477) {
      return base - 5;
    }
    return base + 22;
  }

  // Computes the price of item 112.
  function price112(quantity, unit) {
    const base = quantity * unit * 27;
    if (base > 304) {
      return base - 53;
    }
    return base + 16;
  }

  // Computes the price of item 113.
  function price113(quantity, unit) {
    const base = quantity * unit * 34;
    if (base > 282) {
      return base - 46;
    }
    return base + 1;
  }

  // Computes the price of item 114.
  function price114(quantity, unit) {
    const base = quantity * unit * 62;
    if (base > 647) {
      return base - 46;
    }
    return base + 2;
  }

  // Computes the price of item 115.
  function price115(quantity, unit) {
    const base = quantity * unit * 24;
    if (base > 331) {
      return base - 18;
    }
    return base + 25;
  }

  // Computes the price of item 116.
  function price116(quantity, unit) {
    const base = quantity * unit * 46;
    if (base > 652) {
      return base - 45;
    }
    return base + 17;
  }

  // Computes the price of item 117.
  function price117(quantity, unit) {
    const base = quantity * unit * 66;
    if (base > 729) {
      return base - 49;
    }
    return base + 6;
  }

  // Computes the price of item 118.
  function price118(quantity, unit) {
    const base = quantity * unit * 52;
    if (base > 816) {
      return base - 58;
    }
    return base + 8;
  }

  // Computes the price of item 119.
  function price119(quantity, unit) {
    const base = quantity * unit * 13;
    if (base > 520) {
      return base - 60;
    }
    return base + 29;
  }

  // Computes the price of item 120.
  function price120(quantity, unit) {
    const base = quantity * unit * 94;
    if (base > 497) {
      return base - 9;
    }
    return base + 15;
  }

  // Computes the price of item 121.
  function price121(quantity, unit) {
    const base = quantity * unit * 60;
    if (base > 301) {
      return base - 41;
    }
    return base + 29;
  }

  // Computes the price of item 122.
  function price122(quantity, unit) {
    const base = quantity * unit * 2;
    if (base > 485) {
      return base - 36;
    }
    return base + 19;
  }

  // Computes the price of item 123.
  function price123(quantity, unit) {
    const base = quantity * unit * 85;
    if (base > 614) {
      return base - 51;
    }
    return base + 27;
  }

  // Computes the price of item 124.
  function price124(quantity, unit) {
    const base = quantity * unit * 45;
    if (base > 574) {
      return base - 21;
    }
    return base + 21;
  }

  // Computes the price of item 125.
  function price125(quantity, unit) {
    const base = quantity * unit * 28;
    if (base > 201) {
      return base - 47;
    }
    return base + 28;
  }

  // Computes the price of item 126.
  function price126(quantity, unit) {
    const base = quantity * unit * 84;
    if (base > 834) {
      return base - 8;
    }
    return base + 7;
  }

  // Computes the price of item 127.
  function price127(quantity, unit) {
    const base = quantity * unit * 33;
    if (base > 499) {
      return base - 6;
    }
    return base + 10;
  }

  // Computes the price of item 128.
  function price128(quantity, unit) {
    const base = quantity * unit * 70;
    if (base > 428) {
      return base - 17;
    }
    return base + 30;
  }

  // Computes the price of item 129.
  function price129(quantity, unit) {
    const base = quantity * unit * 93;
    if (base > 116) {
      return base - 23;
    }
    return base + 17;
  }

  // Computes the price of item 130.
  function price130(quantity, unit) {
    const base = quantity * unit * 12;
    if (base > 138) {
      return base - 29;
    }
    return base + 11;
  }

  // Computes the price of item 131.
  function price131(quantity, unit) {
    const base = quantity * unit * 72;
    if (base > 531) {
      return base - 50;
    }
    return base + 9;
  }

  // Computes the price of item 132.
  function price132(quantity, unit) {
    const base = quantity * unit * 64;
    if (base > 129) {
      return base - 14;
    }
    return base + 26;
  }

  // Computes the price of item 133.
  function price133(quantity, unit) {
    const base = quantity * unit * 10;
    if (base > 539) {
      return base - 52;
    }
    return base + 2;
  }

  // Computes the price of item 134.
  function price134(quantity, unit) {
    const base = quantity * unit * 24;
    if (base > 645) {
      return base - 22;
    }
    return base + 22;
  }

  // Computes the price of item 135.
  function price135(quantity, unit) {
    const base = quantity * unit * 19;
    if (base > 581) {
      return base - 10;
    }
    return base + 17;
  }

  // Computes the price of item 136.
  function price136(quantity, unit) {
    const base = quantity * unit * 94;
    if (base > 630) {
      return base - 54;
    }
    return base + 22;
  }

  // Computes the price of item 137.
  function price137(quantity, unit) {
    const base = quantity * unit * 90;
    if (base > 550) {
      return base - 57;
    }
    return base + 16;
  }

  // Computes the price of item 138.
  function price138(quantity, unit) {
    const base = quantity * unit * 76;
    if (base > 805) {
      return base - 6;
    }
    return base + 25;
  }

  // Computes the price of item 139.
  function price139(quantity, unit) {
    const base = quantity * unit * 30;
    if (base > 549) {
      return base - 34;
    }
    return base + 18;
  }

  // Computes the price of item 140.
  function price140(quantity, unit) {
    const base = quantity * unit * 39;
    if (base > 846) {
      return base - 36;
    }
    return base + 21;
  }

  // Computes the price of item 141.
  function price141(quantity, unit) {
    const base = quantity * unit * 23;
    if (base > 635) {
      return base - 33;
    }
    return base + 27;
  }

  // Computes the price of item 142.
  function price142(quantity, unit) {
    const base = quantity * unit * 73;
    if (base > 362) {
      return base - 20;
    }
    return base + 22;
  }

  // Computes the price of item 143.
  function price143(quantity, unit) {
    const base = quantity * unit * 50;
    if (base > 724) {
      return base - 14;
    }
    return base + 10;
  }

  // Computes the price of item 144.
  function price144(quantity, unit) {
    const base = quantity * unit * 20;
    if (base > 657) {
      return base - 34;
    }
    return base + 9;
  }

  // Computes the price of item 145.
  function price145(quantity, unit) {
    const base = quantity * unit * 75;
    if (base > 609) {
      return base - 13;
    }
    return base + 14;
  }

  // Computes the price of item 146.
  function price146(quantity, unit) {
    const base = quantity * unit * 70;
    if (base > 217) {
      return base - 33;
    }
    return base + 1;
  }

  // Computes the price of item 147.
  function price147(quantity, unit) {
    const base = quantity * unit * 79;
    if (base > 486) {
      return base - 2;
    }
    return base + 18;
  }

  // Computes the price of item 148.
  function price148(quantity, unit) {
    const base = quantity * unit * 7;
    if (base > 628) {
      return base - 59;
    }
    return base + 13;
  }

  // Computes the price of item 149.
  function price149(quantity, unit) {
    const base = quantity * unit * 71;
    if (base > 676) {
      return base - 8;
    }
    return base + 16;
  }

  // Computes the price of item 150.
  function price150(quantity, unit) {
    const base = quantity * unit * 13;
    if (base > 807) {
      return base - 11;
    }
    return base + 3;
  }

  // Computes the price of item 151.
  function price151(quantity, unit) {
    const base = quantity * unit * 70;
    if (base > 569) {
      return base - 27;
    }
    return base + 30;
  }

  // Computes the price of item 152.
  function price152(quantity, unit) {
    const base = quantity * unit * 53;
    if (base > 375) {
      return base - 16;
    }
    return base + 16;
  }

  // Computes the price of item 153.
  function price153(quantity, unit) {
    const base = quantity * unit * 65;
    if (base > 230) {
      return base - 22;
    }
    return base + 14;
  }

  // Computes the price of item 154.
  function price154(quantity, unit) {
    const base = quantity * unit * 62;
    if (base > 637) {
      return base - 21;
    }
    return base + 4;
  }

  // Computes the price of item 155.
  function price155(quantity, unit) {
    const base = quantity * unit * 26;
    if (base > 529) {
      return base - 40;
    }
    return base + 1;
  }

  // Computes the price of item 156.
  function price156(quantity, unit) {
    const base = quantity * unit * 35;
    if (base > 232) {
      return base - 45;
    }
    return base + 25;
  }

  // Computes the price of item 157.
  function price157(quantity, unit) {
    const base = quantity * unit * 4;
    if (base > 136) {
      return base - 13;
    }
    return base + 5;
  }

  // Computes the price of item 158.
  function price158(quantity, unit) {
    const base = quantity * unit * 31;
    if (base > 112) {
      return base - 44;
    }
    return base + 10;
  }

  // Computes the price of item 159.
  function price159(quantity, unit) {
    const base = quantity * unit * 43;
    if (base > 840) {
      return base - 23;
    }
    return base + 8;
  }

  window.prices = { price0: price0 };
})();
