// print_tensor ground truth for kute's tests
#include <cute/tensor.hpp>
#include <cstdio>
using namespace cute;
template <class L> void cnt(const char* name, L const& l) {
  printf("=== %s\n", name);
  print_tensor(make_tensor(counting_iterator<int>(0), l));
  printf("=== end\n");
}
template <class S> void idt(const char* name, S const& s) {
  printf("=== %s\n", name);
  print_tensor(make_identity_tensor(s));
  printf("=== end\n");
}
int main() {
  cnt("make_tensor(counting, _8:_1)", make_layout(Int<8>{}));
  cnt("make_tensor(counting, (_2,_3):(_3,_1))", make_layout(make_shape(Int<2>{},Int<3>{}), make_stride(Int<3>{},Int<1>{})));
  cnt("make_tensor(counting, 6:2)", make_layout(6, 2));
  cnt("make_tensor(counting, (_4,_8):(_1,_4))", make_layout(make_shape(Int<4>{},Int<8>{})));
  cnt("make_tensor(counting, (_4,(_2,_2)):(_2,(_1,_8)))", make_layout(make_shape(Int<4>{},make_shape(Int<2>{},Int<2>{})), make_stride(Int<2>{},make_stride(Int<1>{},Int<8>{}))));
  cnt("make_tensor(counting, (2,3,4):(1,2,6))", make_layout(make_shape(2,3,4)));
  cnt("make_tensor(counting, (_2,_2,_3):(_6,_3,_1))", make_layout(make_shape(Int<2>{},Int<2>{},Int<3>{}), make_stride(Int<6>{},Int<3>{},Int<1>{})));
  cnt("make_tensor(counting, (_12,_10):(_10,_1))", make_layout(make_shape(Int<12>{},Int<10>{}), make_stride(Int<10>{},Int<1>{})));
  cnt("make_tensor(counting, (2,2,2,2):(1,2,4,8))", make_layout(make_shape(2,2,2,2)));
  idt("make_identity_tensor(_5)", Int<5>{});
  idt("make_identity_tensor((_4,_8))", make_shape(Int<4>{},Int<8>{}));
  idt("make_identity_tensor((3,2))", make_shape(3,2));
  idt("make_identity_tensor((_2,(_2,_3)))", make_shape(Int<2>{},make_shape(Int<2>{},Int<3>{})));
  idt("make_identity_tensor((_2,_3,_2))", make_shape(Int<2>{},Int<3>{},Int<2>{}));
  printf("=== local_tile(make_identity_tensor((_8,_12)),(_4,_3),(1,2))\n");
  print_tensor(local_tile(make_identity_tensor(make_shape(Int<8>{},Int<12>{})), make_shape(Int<4>{},Int<3>{}), make_coord(1,2)));
  printf("=== end\n");
  printf("=== local_partition(make_identity_tensor((_8,_12)),(_2,_3):(_3,_1),4)\n");
  print_tensor(local_partition(make_identity_tensor(make_shape(Int<8>{},Int<12>{})), make_layout(make_shape(Int<2>{},Int<3>{}), make_stride(Int<3>{},Int<1>{})), 4));
  printf("=== end\n");
  printf("=== local_tile(make_tensor(counting, (_8,_12):(_12,_1)),(_4,_3),(1,2))\n");
  print_tensor(local_tile(make_tensor(counting_iterator<int>(0), make_layout(make_shape(Int<8>{},Int<12>{}), make_stride(Int<12>{},Int<1>{}))), make_shape(Int<4>{},Int<3>{}), make_coord(1,2)));
  printf("=== end\n");
  printf("=== local_partition(make_tensor(counting, (_8,_12):(_1,_8)),(_2,_4):(_1,_2),5)\n");
  print_tensor(local_partition(make_tensor(counting_iterator<int>(0), make_layout(make_shape(Int<8>{},Int<12>{}))), make_layout(make_shape(Int<2>{},Int<4>{})), 5));
  printf("=== end\n");
  printf("=== make_identity_tensor((_4,_6))(_,2)\n");
  print_tensor(make_identity_tensor(make_shape(Int<4>{},Int<6>{}))(_,2));
  printf("=== end\n");
  printf("=== make_tensor(counting, (_4,_6):(_6,_1))(1,_)\n");
  print_tensor(make_tensor(counting_iterator<int>(0), make_layout(make_shape(Int<4>{},Int<6>{}), make_stride(Int<6>{},Int<1>{})))(1,_));
  printf("=== end\n");
  printf("=== zipped_divide(make_tensor(counting, (_4,_6):(_1,_4)),(_2,_3))\n");
  print_tensor(zipped_divide(make_tensor(counting_iterator<int>(0), make_layout(make_shape(Int<4>{},Int<6>{}))), make_shape(Int<2>{},Int<3>{})));
  printf("=== end\n");
}
