/**
 * grpc/health/v1/health.proto as a descriptor, for reflection. grpc-health-check
 * serves the service but ships its schema only as a .proto text, which
 * proto-loader turns into descriptors reflection clients cannot resolve; this
 * is the same schema, written as data.
 */
import { create } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";

export const healthFileDescriptor: FileDescriptorProto = create(FileDescriptorProtoSchema, {
  name: "grpc/health/v1/health.proto",
  package: "grpc.health.v1",
  syntax: "proto3",
  messageType: [
    { name: "HealthCheckRequest", field: [{ name: "service", number: 1, label: Label.OPTIONAL, type: Type.STRING, jsonName: "service" }] },
    {
      name: "HealthCheckResponse",
      field: [
        {
          name: "status",
          number: 1,
          label: Label.OPTIONAL,
          type: Type.ENUM,
          typeName: ".grpc.health.v1.HealthCheckResponse.ServingStatus",
          jsonName: "status",
        },
      ],
      enumType: [
        {
          name: "ServingStatus",
          value: [
            { name: "UNKNOWN", number: 0 },
            { name: "SERVING", number: 1 },
            { name: "NOT_SERVING", number: 2 },
            { name: "SERVICE_UNKNOWN", number: 3 },
          ],
        },
      ],
    },
  ],
  service: [
    {
      name: "Health",
      method: [
        { name: "Check", inputType: ".grpc.health.v1.HealthCheckRequest", outputType: ".grpc.health.v1.HealthCheckResponse" },
        { name: "Watch", inputType: ".grpc.health.v1.HealthCheckRequest", outputType: ".grpc.health.v1.HealthCheckResponse", serverStreaming: true },
      ],
    },
  ],
});
